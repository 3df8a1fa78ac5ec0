/* config_doc: the config of a result document read back as config text (see config_doc.h). */
#include "config_doc.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"

#define DOC_MAX_NESTING 64 /* a result's config nests two arrays deep (jobs, their lists) */
#define DOC_EXPECTED "expected the result document of one dfsim run"

/* The conversion of the "config" member into config text. */
struct doc_converter {
    const char *path, *text; /* the document, for messages */
    char *out;               /* room for twice the member: the longest escape doubles */
    size_t n;
    char closers[DOC_MAX_NESTING]; /* the bracket closing each open array: ']' or ')' */
    int depth;
    char *err;
    size_t err_len;
};

static int doc_fail(char *err, size_t err_len, const char *path, const char *text, const char *at,
                    const char *fmt, ...)
{
    int n;
    if (at) {
        int line = 1;
        for (const char *p = text; p < at; p++)
            line += *p == '\n';
        n = snprintf(err, err_len, "%.300s:%d: ", path, line);
    } else {
        n = snprintf(err, err_len, "%.300s: ", path);
    }
    if (n < 0 || (size_t)n >= err_len)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, err_len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

bool config_doc_is_json(const char *path, const char *text)
{
    size_t n = strlen(path);
    if (n >= 5 && strcmp(path + n - 5, ".json") == 0)
        return true;
    text += strspn(text, " \t\r\n");
    return *text == '{' || *text == '[';
}

/* ---- finding the "config" member in the text (already parsed: the JSON is valid) ---- */

static const char *doc_skip_blank(const char *p)
{
    return p + strspn(p, " \t\r\n");
}

/* p at an opening quote: returns the character after the closing one. */
static const char *doc_skip_string(const char *p)
{
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
            p++;
    return *p ? p + 1 : p;
}

static const char *doc_skip_value(const char *p)
{
    if (*p == '"')
        return doc_skip_string(p);
    if (*p != '{' && *p != '[')
        return p + strcspn(p, ",}] \t\r\n");
    int depth = 0;
    do {
        if (*p == '"') {
            p = doc_skip_string(p);
            continue;
        }
        depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
        p++;
    } while (*p && depth > 0);
    return p;
}

/* The value of the root object's first member called name: [*start, *end); -1 if none. */
static int doc_find_member(const char *text, const char *name, const char **start, const char **end)
{
    const char *p = doc_skip_blank(text);
    if (*p++ != '{')
        return -1;
    size_t len = strlen(name);
    for (;;) {
        p = doc_skip_blank(p);
        if (*p != '"')
            return -1;
        const char *after = doc_skip_string(p);
        bool match = (size_t)(after - p) == len + 2 && strncmp(p + 1, name, len) == 0;
        p = doc_skip_blank(after);
        if (*p != ':')
            return -1;
        const char *value = doc_skip_blank(p + 1);
        p = doc_skip_value(value);
        if (match) {
            *start = value;
            *end = p;
            return 0;
        }
        p = doc_skip_blank(p);
        if (*p++ != ',')
            return -1;
    }
}

/* ---- JSON into config text ---- */

static void doc_emit(struct doc_converter *c, char ch)
{
    c->out[c->n++] = ch;
}

static void doc_emit_hex(struct doc_converter *c, unsigned byte)
{
    static const char digits[] = "0123456789abcdef";
    doc_emit(c, '\\');
    doc_emit(c, 'x');
    doc_emit(c, digits[byte >> 4 & 15]);
    doc_emit(c, digits[byte & 15]);
}

/* The 4 hex digits at p (after \u), or -1. */
static long doc_hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        int d = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A \uXXXX escape at p (at the backslash), a surrogate pair taken whole: the character in
 * UTF-8, as libconfig reads string bytes. Returns the characters read, or 0 if refused. */
static int doc_unicode(struct doc_converter *c, const char *p)
{
    long code = doc_hex4(p + 2);
    int used = 6;
    if (code >= 0xD800 && code <= 0xDBFF && p[6] == '\\' && p[7] == 'u') {
        long low = doc_hex4(p + 8);
        if (low >= 0xDC00 && low <= 0xDFFF) {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            used = 12;
        }
    }
    if (code <= 0 || (code >= 0xD800 && code <= 0xDFFF))
        return 0; /* NUL would end the string early; a lone surrogate is no character */
    if (code < 0x80) {
        doc_emit_hex(c, (unsigned)code);
        return used;
    }
    unsigned char bytes[4];
    int n = code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (int i = n - 1; i > 0; i--, code >>= 6)
        bytes[i] = (unsigned char)(0x80 | (code & 0x3F));
    bytes[0] = (unsigned char)(lead[n] | code);
    for (int i = 0; i < n; i++)
        doc_emit(c, (char)bytes[i]);
    return used;
}

/* A string value from its opening quote at *p: libconfig's escapes for JSON's. */
static int doc_string_value(struct doc_converter *c, const char **p)
{
    const char *at = *p;
    doc_emit(c, '"');
    for (at++; *at != '"'; at++) {
        if (*at != '\\') {
            doc_emit(c, *at);
            continue;
        }
        at++;
        const char *same = strchr("\"\\fnrt", *at);
        if (*at == '/') {
            doc_emit(c, '/');
        } else if (*at == 'b') {
            doc_emit_hex(c, '\b');
        } else if (same) {
            doc_emit(c, '\\');
            doc_emit(c, *at);
        } else {
            int used = doc_unicode(c, at - 1);
            if (!used)
                return doc_fail(c->err, c->err_len, c->path, c->text, at,
                                "\\%.5s in a string (expected a character other than NUL)", at);
            at += used - 2;
        }
    }
    doc_emit(c, '"');
    *p = at + 1;
    return 0;
}

/* A member's key from its opening quote at *p, written bare: libconfig names are unquoted. */
static int doc_key(struct doc_converter *c, const char **p, const char *close)
{
    const char *name = *p + 1;
    size_t n = (size_t)(close - name);
    bool plain = n > 0 &&
                 strspn(name, "abcdefghijklmnopqrstuvwxyz"
                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n &&
                 !(name[0] >= '0' && name[0] <= '9');
    if (!plain)
        return doc_fail(c->err, c->err_len, c->path, c->text, *p,
                        "config: \"%.*s\" names no setting (expected names such as "
                        "\"traffic\" or \"load\")",
                        (int)(n < 64 ? n : 64), name);
    doc_emit(c, ' ');
    for (size_t i = 0; i < n; i++)
        doc_emit(c, name[i]);
    doc_emit(c, ' ');
    *p = close + 1;
    return 0;
}

/* A string at *p: a key if a ':' follows it, else a value. */
static int doc_string(struct doc_converter *c, const char **p)
{
    const char *after = doc_skip_string(*p);
    if (*doc_skip_blank(after) == ':')
        return doc_key(c, p, after - 1);
    return doc_string_value(c, p);
}

/* An array of objects is a libconfig list: ( {...}, ... ); any other stays an array. */
static int doc_open_array(struct doc_converter *c, const char *p)
{
    if (c->depth == DOC_MAX_NESTING)
        return doc_fail(c->err, c->err_len, c->path, c->text, p,
                        "config: arrays nested more than %d deep (expected a result's config)",
                        DOC_MAX_NESTING);
    bool list = *doc_skip_blank(p + 1) == '{';
    c->closers[c->depth++] = list ? ')' : ']';
    doc_emit(c, list ? '(' : '[');
    return 0;
}

/* One character of the member outside strings: brackets, null, or copied. */
static int doc_symbol(struct doc_converter *c, const char *p)
{
    if (*p == '[')
        return doc_open_array(c, p);
    if (*p == ']')
        doc_emit(c, c->depth > 0 ? c->closers[--c->depth] : ']');
    else if (*p == 'n')
        return doc_fail(c->err, c->err_len, c->path, c->text, p,
                        "config: null is no setting's value (expected the values dfsim run "
                        "writes)");
    else
        doc_emit(c, *p);
    return 0;
}

/* The config object [start, end) as config text: its members, its braces left out; the
 * lines before it are kept empty so that lines stay the document's. */
static int doc_convert(struct doc_converter *c, const char *start, const char *end)
{
    for (const char *p = c->text; p < start; p++)
        if (*p == '\n')
            doc_emit(c, '\n');
    doc_emit(c, ' ');
    for (const char *p = start + 1; p < end - 1;) {
        if (*p == '"') {
            if (doc_string(c, &p) != 0)
                return -1;
        } else if (doc_symbol(c, p++) != 0) {
            return -1;
        }
    }
    doc_emit(c, ' ');
    doc_emit(c, '\0');
    return 0;
}

/* ---- the document ---- */

/* The root is one run's result of this schema with a named config; else the problem. */
static int doc_check(const cJSON *root, const char *path, char *name, size_t name_len, char *err,
                     size_t err_len)
{
    const cJSON *build = cJSON_GetObjectItemCaseSensitive(root, "dfsim");
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(root, "config");
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(build, "schema");
    const cJSON *config_name = cJSON_GetObjectItemCaseSensitive(config, "name");
    if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "points")))
        return doc_fail(err, err_len, path, NULL, NULL,
                        "a sweep document, not one run's result (" DOC_EXPECTED
                        ", such as a point's file of the sweep)");
    if (!cJSON_IsObject(build) || !cJSON_IsNumber(schema) || !cJSON_IsObject(config))
        return doc_fail(err, err_len, path, NULL, NULL,
                        "JSON, but not a dfsim result: no \"dfsim\" and \"config\" objects "
                        "(" DOC_EXPECTED ")");
    if (schema->valuedouble != DFSIM_SCHEMA)
        return doc_fail(err, err_len, path, NULL, NULL,
                        "a result of schema %.15g (expected schema %d, the layout this dfsim "
                        "writes)",
                        schema->valuedouble, DFSIM_SCHEMA);
    if (!cJSON_IsString(config_name) || strlen(config_name->valuestring) >= name_len)
        return doc_fail(err, err_len, path, NULL, NULL,
                        "config.name: expected a string of at most %zu characters", name_len - 1);
    snprintf(name, name_len, "%s", config_name->valuestring);
    return 0;
}

int config_doc_read(const char *path, const char *text, char **out, char *name, size_t name_len,
                    char *err, size_t err_len)
{
    *out = NULL;
    const char *stop = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &stop, true);
    if (!root)
        return doc_fail(err, err_len, path, text, stop,
                        "not valid JSON near '%.20s' (" DOC_EXPECTED ")", stop ? stop : "");
    int rc = doc_check(root, path, name, name_len, err, err_len);
    cJSON_Delete(root);
    const char *start = NULL, *end = NULL;
    if (rc == 0 && doc_find_member(text, "config", &start, &end) != 0)
        rc = doc_fail(err, err_len, path, NULL, NULL,
                      "no \"config\" member found (" DOC_EXPECTED ")");
    if (rc != 0)
        return -1;
    struct doc_converter c = {.path = path, .text = text, .err = err, .err_len = err_len};
    c.out = malloc((size_t)(start - text) + 2 * (size_t)(end - start) + 16);
    if (!c.out)
        return doc_fail(err, err_len, path, NULL, NULL, "out of memory");
    if (doc_convert(&c, start, end) != 0) {
        free(c.out);
        return -1;
    }
    *out = c.out;
    return 0;
}
