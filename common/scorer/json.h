/* json.h - a small JSON writer for the one machine-readable document each lab produces.
 * Keys keep their order, and each element of a top-level array is written on one line. */
#ifndef JSON_H
#define JSON_H

#include <stdio.h>

typedef struct json {
    FILE *f;
    int depth;
    int first[16];  /* per nesting level: no comma needed yet */
    int pending_key;
} json;

void json_open(json *j, FILE *f);
void json_begin_object(json *j);
void json_end_object(json *j);
void json_begin_array(json *j);
void json_end_array(json *j);
void json_key(json *j, const char *key);
void json_string(json *j, const char *s);
void json_number(json *j, double x); /* NaN and Inf are written as null */
void json_bool(json *j, int b);
/* key + value shorthands */
void json_kv_string(json *j, const char *key, const char *s);
void json_kv_number(json *j, const char *key, double x);

/* Write s as a JSON string literal with escapes (exposed for tests). */
void json_write_escaped(FILE *f, const char *s);

#endif
