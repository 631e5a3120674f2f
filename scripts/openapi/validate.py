#!/usr/bin/python3
"""Validates ownerdash serve's OpenAPI document, and answers against it (Debian's python3-jsonschema, Draft 2020-12).

    validate.py OPENAPI_SCHEMA DOCUMENT [ANSWERS]

OPENAPI_SCHEMA: the OpenAPI 3.1 JSON Schema (Tests/Fixtures/openapi/openapi-3.1-schema.json).
DOCUMENT: /api/v2/openapi.json as served. It must be valid against OPENAPI_SCHEMA, and every Schema Object in it a
valid Draft 2020-12 schema.
ANSWERS: a JSON list of answers the server gave, each {"method", "path" (the document's path template), "status",
"content_type", "body"}: each status must be documented for that operation, and each body valid against the
schema documented for that status and media type (formats such as date checked).

Prints every problem found on stderr and exits 1 if there was any; else prints a one-line summary and exits 0.
"""
import json
import sys
import warnings

import jsonschema
from jsonschema import Draft202012Validator, FormatChecker

warnings.simplefilter("ignore", DeprecationWarning)   # RefResolver, on jsonschema 4.18 and later


def schema_objects(value, path):
    """Every Schema Object of an OpenAPI document: under components.schemas and every "schema" member."""
    if isinstance(value, dict):
        for key, member in value.items():
            if key == "schema" or (path[-2:] == ["components", "schemas"]):
                yield path + [key], member
            elif key != "examples":
                yield from schema_objects(member, path + [key])
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from schema_objects(member, path + [str(index)])


def where(error):
    return "/".join(str(part) for part in error.absolute_path) or "(root)"


def check_document(openapi_schema, document, problems):
    for error in sorted(Draft202012Validator(openapi_schema).iter_errors(document), key=lambda e: list(e.absolute_path)):
        problems.append(f"document: {where(error)}: {error.message}")
    count = 0
    for path, schema in schema_objects(document, []):
        count += 1
        for error in Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema):
            problems.append(f"document: {'/'.join(path)}: not a Draft 2020-12 schema: {where(error)}: {error.message}")
    return count


def resolve(document, value):
    """A Reference Object's target (#/components/...), else the value itself."""
    while isinstance(value, dict) and "$ref" in value and value["$ref"].startswith("#/"):
        target = document
        for part in value["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        value = target
    return value


def check_answers(document, answers, problems):
    resolver = jsonschema.RefResolver.from_schema(document)
    for answer in answers:
        label = f"{answer['method']} {answer['path']} {answer['status']}"
        operation = document.get("paths", {}).get(answer["path"], {}).get(answer["method"].lower())
        if operation is None:
            problems.append(f"{label}: no such operation in the document")
            continue
        response = operation.get("responses", {}).get(str(answer["status"]))
        if response is None:
            problems.append(f"{label}: status not documented (documented: {', '.join(operation.get('responses', {}))})")
            continue
        content = resolve(document, response).get("content", {})
        if not content:
            if answer["body"]:
                problems.append(f"{label}: a body where the document says none")
            continue
        media = answer["content_type"].split(";")[0].strip()
        if media not in content:
            problems.append(f"{label}: {media} not documented (documented: {', '.join(content)})")
            continue
        try:
            body = json.loads(answer["body"])
        except ValueError as error:
            problems.append(f"{label}: the body is not JSON: {error}")
            continue
        validator = Draft202012Validator(content[media]["schema"], resolver=resolver, format_checker=FormatChecker())
        for error in sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))[:5]:
            problems.append(f"{label}: body {where(error)}: {error.message[:300]}")


def main(arguments):
    if len(arguments) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    with open(arguments[0]) as file:
        openapi_schema = json.load(file)
    with open(arguments[1]) as file:
        document = json.load(file)
    problems = []
    schemas = check_document(openapi_schema, document, problems)
    answers = []
    if len(arguments) == 3:
        with open(arguments[2]) as file:
            answers = json.load(file)
        check_answers(document, answers, problems)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"valid OpenAPI {document.get('openapi')}: {len(document.get('paths', {}))} paths, {schemas} schemas; "
          f"{len(answers)} answers as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
