/* config.c - see config.h. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

int config_parse(config *c, const char *text, char *err, int errlen)
{
    char *copy = xstrdup(text), *save = NULL;
    int lineno = 0;
    c->e = NULL;
    c->n = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, (size_t)errlen, "%s line %d: expected 'key = value', got '%s'", c->path, lineno, s);
            free(copy);
            config_free(c);
            return -1;
        }
        *eq = '\0';
        c->e = xrealloc(c->e, sizeof *c->e * (size_t)(c->n + 1));
        c->e[c->n].key = xstrdup(trim(s));
        c->e[c->n].value = xstrdup(trim(eq + 1));
        c->n++;
    }
    free(copy);
    return 0;
}

int config_load(config *c, const char *path, char *err, int errlen)
{
    snprintf(c->path, sizeof c->path, "%s", path);
    char *text = read_text(path, 1 << 20);
    if (!text) {
        snprintf(err, (size_t)errlen, "cannot read %s", path);
        return -1;
    }
    int rc = config_parse(c, text, err, errlen);
    free(text);
    return rc;
}

void config_free(config *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->e[i].key);
        free(c->e[i].value);
    }
    free(c->e);
    c->e = NULL;
    c->n = 0;
}

const char *config_str(const config *c, const char *key)
{
    for (int i = c->n - 1; i >= 0; i--) /* the last definition wins */
        if (strcmp(c->e[i].key, key) == 0) return c->e[i].value;
    return NULL;
}

static int parse_num(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    return end != s && *end == '\0' && isfinite(*out);
}

double config_num_or(const config *c, const char *key, double fallback)
{
    const char *v = config_str(c, key);
    double x;
    if (!v) return fallback;
    if (!parse_num(v, &x)) die("%s: '%s = %s' is not a number", c->path, key, v);
    return x;
}

double config_num(const config *c, const char *key)
{
    if (!config_str(c, key)) die("%s: missing key '%s'", c->path, key);
    return config_num_or(c, key, 0);
}
