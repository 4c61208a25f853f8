import { expect } from "vitest";

/** The answer is that problem (RFC 9457): its status, `application/problem+json`, code, type, title, detail. */
export function expectProblem(
  res: { status: number; headers: any; body: any },
  status: number,
  code: string,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String) });
  expect(typeof res.body.detail).toBe("string");
}
