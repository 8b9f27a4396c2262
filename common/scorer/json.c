/* json.c - see json.h. */
#include "json.h"

#include <math.h>

void json_open(json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->first[0] = 1;
    j->pending_key = 0;
}

/* Comma and layout before a value: objects nested in a top-level array start on a new line. */
static void before_value(json *j)
{
    if (j->pending_key) {
        j->pending_key = 0;
        return;
    }
    if (!j->first[j->depth]) fputs(",", j->f);
    if (j->depth == 2) fputs("\n    ", j->f);
    j->first[j->depth] = 0;
}

static void open_level(json *j, char c)
{
    before_value(j);
    fputc(c, j->f);
    j->first[++j->depth] = 1;
}

void json_begin_object(json *j) { open_level(j, '{'); }
void json_begin_array(json *j) { open_level(j, '['); }

void json_end_object(json *j)
{
    j->depth--;
    fputs(j->depth == 0 ? "\n}\n" : "}", j->f);
}

void json_end_array(json *j)
{
    j->depth--;
    fputs(j->depth == 1 ? "\n  ]" : "]", j->f);
}

void json_write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else if (*p >= 0x80) fputc('?', f); /* keep the document valid UTF-8 whatever a compiler printed */
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

void json_key(json *j, const char *key)
{
    before_value(j);
    if (j->depth == 1) fputs("\n  ", j->f);
    json_write_escaped(j->f, key);
    fputs(": ", j->f);
    j->pending_key = 1;
}

void json_string(json *j, const char *s)
{
    before_value(j);
    json_write_escaped(j->f, s);
}

void json_number(json *j, double x)
{
    before_value(j);
    if (isfinite(x)) fprintf(j->f, "%.10g", x);
    else fputs("null", j->f);
}

void json_bool(json *j, int b)
{
    before_value(j);
    fputs(b ? "true" : "false", j->f);
}

void json_kv_string(json *j, const char *key, const char *s) { json_key(j, key); json_string(j, s); }
void json_kv_number(json *j, const char *key, double x) { json_key(j, key); json_number(j, x); }
