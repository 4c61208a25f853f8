/** The signed-in user as the API names them (better-auth's sign-in answer and our session). */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  image?: string | null;
}
