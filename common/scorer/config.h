/* config.h - the threshold files under grading/NN-name/: "key = value" lines, '#' starts a comment.
 * Every threshold lives in such a file, never in code. */
#ifndef CONFIG_H
#define CONFIG_H

typedef struct config_entry { char *key, *value; } config_entry;
typedef struct config { config_entry *e; int n; char path[512]; } config;

/* Parse `path`. Returns 0, or -1 with a message in err (the file is missing or a line is malformed). */
int config_load(config *c, const char *path, char *err, int errlen);
/* Parse from a string (for tests). */
int config_parse(config *c, const char *text, char *err, int errlen);
void config_free(config *c);

/* The value of key, or NULL. */
const char *config_str(const config *c, const char *key);
/* The value as a number; dies naming the file and key when missing or not a number. */
double config_num(const config *c, const char *key);
/* As config_num, but `fallback` when the key is absent. */
double config_num_or(const config *c, const char *key, double fallback);

#endif
