import {
  Array as ArrayType,
  Boolean as BooleanType,
  Integer,
  Literal,
  Null,
  Number as NumberType,
  Object as ObjectType,
  Optional,
  String as StringType,
  Union,
} from "@sinclair/typebox";

/**
 * The TypeBox builders that contract files read by the web app use, under TypeBox's own names.
 * Importing `Type` from the package would put every builder in the browser's bundle (about 10 KB
 * gzipped more); named imports let the bundler keep only these.
 */
export const Type = {
  Array: ArrayType,
  Boolean: BooleanType,
  Integer,
  Literal,
  Null,
  Number: NumberType,
  Object: ObjectType,
  Optional,
  String: StringType,
  Union,
};
