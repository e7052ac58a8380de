"""Validates SCXML documents against the W3C SCXML 1.0 schema (`scxml-schema/`, see its
NOTICE) with PyPI's xmlschema, for SCXMLExportTests. Reads a JSON object {KEY: DOCUMENT} from
the file named by its argument and prints one line per document: `KEY|valid`, or `KEY|` and
the first reason it is not.
"""

import json
import os
import sys

import xmlschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scxml-schema", "scxml.xsd")


def main():
    schema = xmlschema.XMLSchema(SCHEMA)
    with open(sys.argv[1], encoding="utf-8") as documents:
        for key, document in sorted(json.load(documents).items()):
            error = next(schema.iter_errors(document), None)
            reason = "valid" if error is None else " ".join(str(error.reason or error).split())
            sys.stdout.write("%s|%s\n" % (key, reason))


if __name__ == "__main__":
    main()
