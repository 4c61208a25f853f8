import {
  Array as ArrayType,
  Boolean as BooleanType,
  Integer,
  Literal,
  Null,
  Number as NumberType,
  Object as ObjectType,
  Optional,
  Record as RecordType,
  String as StringType,
  Union,
  Unknown,
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
  Record: RecordType,
  String: StringType,
  Union,
  Unknown,
};
