/* result_json: renders the result document (src/METRICS.md) from its table (result_schema.c)
 * and writes it atomically. */
#include "result_json.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "result_schema.h"

/* Integers are written as raw text so that 64-bit counts and seeds stay exact (a cJSON number
 * is a double). */
static cJSON *result_json_create_integer(int64_t value)
{
    char text[24];
    snprintf(text, sizeof text, "%" PRId64, value);
    return cJSON_CreateRaw(text);
}

static cJSON *result_json_create_count(uint64_t value)
{
    char text[24];
    snprintf(text, sizeof text, "%" PRIu64, value);
    return cJSON_CreateRaw(text);
}

/* The adders below return false on allocation failure (cJSON ignores a NULL parent, so a
 * failure anywhere simply propagates to the final check). */
static bool result_json_add(cJSON *obj, const char *key, cJSON *item)
{
    if (!item)
        return false;
    if (!cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool result_json_add_number(cJSON *obj, const char *key, double value)
{
    return cJSON_AddNumberToObject(obj, key, value) != NULL;
}

static cJSON *result_json_create_int_list(const struct setting_int_list *list)
{
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; array && i < list->count; i++) {
        cJSON *item = result_json_create_integer(list->values[i]);
        if (!item || !cJSON_AddItemToArray(array, item)) {
            cJSON_Delete(item);
            cJSON_Delete(array);
            return NULL;
        }
    }
    return array;
}

static bool result_json_add_setting(cJSON *group, const struct setting_ref *r,
                                    const struct sim_config *cfg)
{
    const char *field = settings_value(cfg, r);
    const char *name = r->row->name;
    switch (r->row->type) {
    case SETTING_INT:
        return result_json_add(group, name, result_json_create_integer(*(const int *)field));
    case SETTING_INT64:
        return result_json_add(group, name, result_json_create_integer(*(const int64_t *)field));
    case SETTING_DOUBLE:
        return result_json_add_number(group, name, *(const double *)field);
    case SETTING_BOOL:
        return cJSON_AddBoolToObject(group, name, *(const bool *)field) != NULL;
    case SETTING_CHOICE:
        if (settings_choice_is_bool(r->row, *(const int *)field)) /* as the file wrote it */
            return cJSON_AddBoolToObject(group, name,
                                         strcmp(settings_choices(r->row)[*(const int *)field],
                                                "true") == 0) != NULL;
        return cJSON_AddStringToObject(group, name,
                                       settings_choices(r->row)[*(const int *)field]) != NULL;
    case SETTING_STRING:
        return cJSON_AddStringToObject(group, name, field) != NULL;
    case SETTING_INT_LIST:
        return result_json_add(group, name,
                               result_json_create_int_list((const struct setting_int_list *)field));
    }
    return false;
}

struct result_json_config {
    cJSON *config;
    const struct sim_config *cfg;
};

/* The object a setting goes in: its group's, or its list element's (in an array). */
static cJSON *result_json_config_object(cJSON *config, const struct setting_ref *r)
{
    if (!r->list) {
        cJSON *group = cJSON_GetObjectItemCaseSensitive(config, r->group->name);
        return group ? group : cJSON_AddObjectToObject(config, r->group->name);
    }
    cJSON *array = cJSON_GetObjectItemCaseSensitive(config, r->list->name);
    if (!array)
        array = cJSON_AddArrayToObject(config, r->list->name);
    cJSON *element = cJSON_GetArrayItem(array, r->element);
    if (!element && array) {
        element = cJSON_CreateObject();
        if (element && !cJSON_AddItemToArray(array, element)) {
            cJSON_Delete(element);
            element = NULL;
        }
    }
    return element;
}

static int result_json_add_config_setting(void *ctx, const struct setting_ref *r)
{
    struct result_json_config *c = ctx;
    if (settings_quiet(c->cfg, r) || !settings_in_force(c->cfg, r))
        return 0; /* only the settings in force: not those of plug-ins not chosen */
    cJSON *object = result_json_config_object(c->config, r);
    return object && result_json_add_setting(object, r, c->cfg) ? 0 : -1;
}

/* "config": the name, then every setting in force grouped as in the config file. */
static bool result_json_add_config(cJSON *doc, const struct sim_config *cfg)
{
    cJSON *config = cJSON_AddObjectToObject(doc, "config");
    bool ok = cJSON_AddStringToObject(config, "name", cfg->name) != NULL;
    struct result_json_config c = {config, cfg};
    return ok && settings_each_in(cfg, result_json_add_config_setting, &c) == 0;
}

/* What a field's value is rendered with besides its own struct. */
struct result_json_render {
    const struct sim_config *cfg; /* for the "config" object */
    bool include_timing;
};

static bool result_json_add_section(cJSON *obj, const struct result_section *section,
                                    const void *source, const struct result_json_render *r);

static cJSON *result_json_count_at(const struct result_field *f, const void *source, int i)
{
    return result_json_create_count(result_field_count_at(f, source, i));
}

static cJSON *result_json_number_at(const struct result_field *f, const void *source, int i)
{
    return cJSON_CreateNumber(result_field_number_at(f, source, i));
}

static cJSON *result_json_create_array(const struct result_field *f, const void *source,
                                       cJSON *(*element)(const struct result_field *, const void *,
                                                         int))
{
    cJSON *array = cJSON_CreateArray();
    int n = result_field_length(f, source);
    for (int i = 0; array && i < n; i++) {
        cJSON *item = element(f, source, i);
        if (!item || !cJSON_AddItemToArray(array, item)) {
            cJSON_Delete(item);
            cJSON_Delete(array);
            return NULL;
        }
    }
    return array;
}

/* The JSON value of a field that is not an object. */
static cJSON *result_json_create_value(const struct result_field *f, const void *source)
{
    switch (f->type) {
    case RESULT_COUNT:
        return result_json_create_count(result_field_count(f, source));
    case RESULT_NUMBER:
        return cJSON_CreateNumber(result_field_number(f, source));
    case RESULT_NUMBER_OR_NULL:
        return result_field_is_null(f, source) ? cJSON_CreateNull()
                                               : cJSON_CreateNumber(result_field_number(f, source));
    case RESULT_STRING:
        return cJSON_CreateString(result_field_string(f, source));
    case RESULT_COUNT_ARRAY:
        return result_json_create_array(f, source, result_json_count_at);
    case RESULT_NUMBER_ARRAY:
        return result_json_create_array(f, source, result_json_number_at);
    case RESULT_BOOL:
        return cJSON_CreateBool(result_field_bool(f, source));
    case RESULT_OBJECT:
    case RESULT_OBJECT_ARRAY:
    case RESULT_SETTINGS:
        break;
    }
    return NULL;
}

/* An array of objects: each element rendered with the field's section. */
static cJSON *result_json_create_objects(const struct result_field *f, const void *source,
                                         const struct result_json_render *r)
{
    cJSON *array = cJSON_CreateArray();
    int n = result_field_length(f, source);
    for (int i = 0; array && i < n; i++) {
        cJSON *element = cJSON_CreateObject();
        if (!element || !cJSON_AddItemToArray(array, element)) {
            cJSON_Delete(element);
            cJSON_Delete(array);
            return NULL;
        }
        if (!result_json_add_section(element, f->section, result_field_object_at(f, source, i),
                                     r)) {
            cJSON_Delete(array);
            return NULL;
        }
    }
    return array;
}

static bool result_json_add_field(cJSON *obj, const struct result_field *f, const void *source,
                                  const struct result_json_render *r)
{
    if ((f->measured && !r->include_timing) || result_field_is_absent(f, source))
        return true;
    if (f->type == RESULT_OBJECT_ARRAY)
        return result_json_add(obj, f->key, result_json_create_objects(f, source, r));
    if (f->type == RESULT_SETTINGS) /* the settings schema (config.h) drives "config" */
        return result_json_add_config(obj, r->cfg);
    if (f->type == RESULT_OBJECT) {
        cJSON *child = cJSON_AddObjectToObject(obj, f->key);
        return child &&
               result_json_add_section(child, f->section, result_field_object(f, source), r);
    }
    return result_json_add(obj, f->key, result_json_create_value(f, source));
}

static bool result_json_add_section(cJSON *obj, const struct result_section *section,
                                    const void *source, const struct result_json_render *r)
{
    bool ok = true;
    for (int i = 0; ok && i < section->n_fields; i++)
        ok = result_json_add_field(obj, &section->fields[i], source, r);
    return ok;
}

char *result_json_render(const struct sim_config *cfg, const struct result *res,
                         bool include_timing)
{
    const struct result_json_render r = {cfg, include_timing};
    cJSON *doc = cJSON_CreateObject();
    bool ok = doc != NULL && result_json_add_section(doc, &result_schema_document, res, &r);
    char *text = ok ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    return text;
}

/* Writes text plus a newline to the open file and closes it; returns 0 or -1 with
 * errno set. A full disk often shows only when the buffer is flushed, hence the fclose check. */
static int result_json_fill(int fd, const char *text)
{
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    size_t len = strlen(text);
    bool failed = fwrite(text, 1, len, f) != len || fputc('\n', f) == EOF;
    int saved = errno;
    if (fclose(f) != 0 && !failed) {
        failed = true;
        saved = errno;
    }
    errno = saved;
    return failed ? -1 : 0;
}

static int result_json_fail(const char *path, int error, char *err, int err_len)
{
    if (err && err_len > 0)
        snprintf(err, (size_t)err_len, "cannot write %s: %s", path, strerror(error));
    return -1;
}

/* An existing output that is not a regular file (/dev/stdout, /dev/full, a FIFO) is written
 * in place: renaming a temporary file over it would replace the device or FIFO itself. */
static int result_json_write_in_place(const char *path, const char *text, char *err, int err_len)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0 || result_json_fill(fd, text) != 0)
        return result_json_fail(path, errno, err, err_len);
    return 0;
}

/* Temporary file in the same directory, then rename: readers never see half a document and
 * an existing file survives a failed write. */
static int result_json_write_text(const char *path, const char *text, char *err, int err_len)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return result_json_write_in_place(path, text, err, err_len);
    size_t len = strlen(path) + sizeof ".tmpXXXXXX";
    char *tmp = malloc(len);
    if (!tmp)
        return result_json_fail(path, ENOMEM, err, err_len);
    snprintf(tmp, len, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    int error = 0;
    if (fd >= 0)
        (void)fchmod(fd, 0644); /* mkstemp creates 0600; a result is for everyone to read */
    if (fd < 0)
        error = errno;
    else if (result_json_fill(fd, text) != 0 || rename(tmp, path) != 0)
        error = errno;
    if (error && fd >= 0)
        unlink(tmp);
    free(tmp);
    return error ? result_json_fail(path, error, err, err_len) : 0;
}

int result_json_write(const char *path, const struct sim_config *cfg, const struct result *res,
                      char *err, int err_len)
{
    char *text = result_json_render(cfg, res, true);
    if (!text)
        return result_json_fail(path, ENOMEM, err, err_len);
    int rc = result_json_write_text(path, text, err, err_len);
    free(text);
    return rc;
}
