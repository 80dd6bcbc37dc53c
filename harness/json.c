/* JSON for the harness: escaping strings it writes, and a small reader for the ceilings file.
 *
 * The reader is a plain recursive-descent parser into a tree (objects, arrays, numbers, strings,
 * true/false/null), enough for results/<slug>/ceilings.json, which the report side writes; a file
 * that does not parse simply yields no peak, so the sweep runs on without peak_pct.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void tg__json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p == '\t') fputs("\\t", out);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

/* The command that wrote a file: "tgemm-bench" and the arguments after it, as one JSON string. */
void tg__json_command(FILE *out, int argc, char **argv)
{
    char cmd[4096] = "tgemm-bench";
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(cmd);
        snprintf(cmd + used, sizeof cmd - used, " %s", argv[i]);
    }
    tg__json_str(out, cmd);
}

typedef struct jv {
    enum { J_NULL, J_NUM, J_STR, J_ARR, J_OBJ } type;
    double num;
    char *str;           /* J_STR */
    struct jv *items;    /* J_ARR, J_OBJ */
    char **keys;         /* J_OBJ */
    int n;
} jv;

static void jv_free(jv *v)
{
    for (int i = 0; i < v->n; i++) {
        jv_free(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

static void ws(const char **p)
{
    while (**p == ' ' || **p == '\n' || **p == '\r' || **p == '\t') (*p)++;
}

/* A string's content, escapes kept as their second character (\uXXXX as '?'): keys and ISA names
 * in the ceilings file are plain ASCII. */
static char *parse_str(const char **p)
{
    if (**p != '"') return NULL;
    const char *s = ++*p;
    size_t len = 0;
    char *out = malloc(strlen(s) + 1);
    if (!out) return NULL;
    while (**p && **p != '"') {
        if (**p == '\\' && (*p)[1]) {
            (*p)++;
            if (**p == 'u') {
                out[len++] = '?';
                for (int i = 0; i < 4 && (*p)[1]; i++) (*p)++;
                (*p)++;
                continue;
            }
        }
        out[len++] = *(*p)++;
    }
    if (**p != '"') {
        free(out);
        return NULL;
    }
    (*p)++;
    out[len] = 0;
    return out;
}

static int parse(const char **p, jv *v, int depth)
{
    memset(v, 0, sizeof *v);
    ws(p);
    if (depth > 64) return -1;
    if (**p == '{' || **p == '[') {
        int obj = **p == '{';
        v->type = obj ? J_OBJ : J_ARR;
        (*p)++;
        ws(p);
        if (**p == (obj ? '}' : ']')) {
            (*p)++;
            return 0;
        }
        for (;;) {
            jv *items = realloc(v->items, (size_t)(v->n + 1) * sizeof *items);
            if (!items) return -1;
            v->items = items;
            if (obj) {
                char **keys = realloc(v->keys, (size_t)(v->n + 1) * sizeof *keys);
                if (!keys) return -1;
                v->keys = keys;
                ws(p);
                keys[v->n] = parse_str(p);
                ws(p);
                if (!keys[v->n] || **p != ':') {
                    free(keys[v->n]);
                    return -1;
                }
                (*p)++;
            }
            int bad = parse(p, &v->items[v->n], depth + 1);
            v->n++;
            if (bad) return -1;
            ws(p);
            if (**p == ',') {
                (*p)++;
                continue;
            }
            if (**p != (obj ? '}' : ']')) return -1;
            (*p)++;
            return 0;
        }
    }
    if (**p == '"') {
        v->type = J_STR;
        v->str = parse_str(p);
        return v->str ? 0 : -1;
    }
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        if (strncmp(*p, words[i], strlen(words[i])) == 0) {
            *p += strlen(words[i]);
            v->type = i < 2 ? J_NUM : J_NULL;
            v->num = i == 0;
            return 0;
        }
    }
    char *end;
    v->type = J_NUM;
    v->num = strtod(*p, &end);
    if (end == *p) return -1;
    *p = end;
    return 0;
}

static const jv *member(const jv *v, const char *key)
{
    if (v->type != J_OBJ) return NULL;
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0) return &v->items[i];
    return NULL;
}

/* Reads and parses a ceilings file into root: 0, or -1 (root then holds nothing to free). */
static int load(const char *path, jv *root)
{
    memset(root, 0, sizeof *root);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    char buf[4096];
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (len + got + 1 > cap) {
            cap = 2 * (len + got + 1);
            char *t = realloc(text, cap);
            if (!t) break;
            text = t;
        }
        memcpy(text + len, buf, got);
        len += got;
    }
    fclose(f);
    if (!text) return -1;
    text[len] = 0;
    const char *p = text;
    int rc = parse(&p, root, 0);
    free(text);
    if (rc != 0) {
        jv_free(root);
        memset(root, 0, sizeof *root);
    }
    return rc;
}

/* The element of "threads" measured with that many threads, or NULL. */
static const jv *thread_entry(const jv *root, int threads)
{
    const jv *list = member(root, "threads");
    for (int i = 0; list && list->type == J_ARR && i < list->n; i++) {
        const jv *t = member(&list->items[i], "threads");
        if (t && t->type == J_NUM && t->num == threads) return &list->items[i];
    }
    return NULL;
}

double tg__ceilings_peak(const char *path, char dtype, int threads)
{
    jv root;
    double best = 0;
    char key[2] = {dtype, 0};
    if (load(path, &root) != 0) return 0;
    const jv *entry = thread_entry(&root, threads);
    const jv *peaks = entry ? member(entry, "peak_gflops") : NULL;
    const jv *per_isa = peaks ? member(peaks, key) : NULL;
    for (int j = 0; per_isa && per_isa->type == J_OBJ && j < per_isa->n; j++)
        if (per_isa->items[j].type == J_NUM && per_isa->items[j].num > best)
            best = per_isa->items[j].num;
    jv_free(&root);
    return best;
}

double tg__ceilings_value(const char *path, int threads, const char *key, const char *sub)
{
    jv root;
    if (load(path, &root) != 0) return 0;
    const jv *entry = thread_entry(&root, threads);
    const jv *v = entry ? member(entry, key) : NULL;
    if (v && sub) v = member(v, sub);
    double value = v && v->type == J_NUM && v->num > 0 ? v->num : 0;
    jv_free(&root);
    return value;
}
