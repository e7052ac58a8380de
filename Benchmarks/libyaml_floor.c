/* The floor of the flowspec benchmark: libyaml's bare event loop over a file.
 *
 * Reads the whole file into memory (as flowspec does), then pulls every event with
 * yaml_parser_parse and counts them. No tree, no strings kept: any front end built on
 * libyaml spends at least this much CPU.
 *
 *   cc -O2 -o libyaml_floor libyaml_floor.c -lyaml
 *   ./libyaml_floor FILE      # prints "<events> events"
 */
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 2;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        fprintf(stderr, "%s: read failed\n", argv[1]);
        return 2;
    }
    fclose(file);

    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) return 2;
    yaml_parser_set_input_string(&parser, bytes, (size_t)size);
    unsigned long events = 0;
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s:%lu:%lu: %s\n", argv[1], (unsigned long)parser.problem_mark.line + 1,
                    (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "error");
            yaml_parser_delete(&parser);
            return 1;
        }
        yaml_event_type_t type = event.type;
        yaml_event_delete(&event);
        events++;
        if (type == YAML_STREAM_END_EVENT) break;
    }
    yaml_parser_delete(&parser);
    free(bytes);
    printf("%lu events\n", events);
    return 0;
}
