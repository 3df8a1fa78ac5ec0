/* result_json: renders the result document of SPEC section 8 and writes it atomically. */
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
#include "stats.h"
#include "version.h"

/* The keys of the latency breakdown, in enum wait_kind order. */
static const char *const result_json_wait_keys[WAIT_KINDS] = {
    [WAIT_INJECTION_QUEUE] = "injection_queue",   [WAIT_LOCAL_QUEUES] = "local_queues",
    [WAIT_GLOBAL_QUEUES] = "global_queues",       [WAIT_MINIMAL_LINKS] = "minimal_links",
    [WAIT_NONMINIMAL_LINKS] = "nonminimal_links",
};

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
    if (!item) return false;
    if (!cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool result_json_add_count(cJSON *obj, const char *key, uint64_t value)
{
    return result_json_add(obj, key, result_json_create_count(value));
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

static int result_json_add_config_setting(void *ctx, const struct setting_ref *r)
{
    struct result_json_config *c = ctx;
    cJSON *group = cJSON_GetObjectItemCaseSensitive(c->config, r->group->name);
    if (!group) group = cJSON_AddObjectToObject(c->config, r->group->name);
    return result_json_add_setting(group, r, c->cfg) ? 0 : -1;
}

/* "config": the name, then every setting of the schema grouped as in the config file. */
static bool result_json_add_config(cJSON *doc, const struct sim_config *cfg)
{
    cJSON *config = cJSON_AddObjectToObject(doc, "config");
    bool ok = cJSON_AddStringToObject(config, "name", cfg->name) != NULL;
    struct result_json_config c = {config, cfg};
    return ok && settings_each(result_json_add_config_setting, &c) == 0;
}

static bool result_json_add_header(cJSON *doc)
{
    cJSON *head = cJSON_AddObjectToObject(doc, "dfsim");
    bool ok = cJSON_AddStringToObject(head, "version", dfsim_version) != NULL;
    return ok && result_json_add(head, "schema", result_json_create_integer(DFSIM_SCHEMA));
}

static bool result_json_add_network(cJSON *doc, const struct result *res)
{
    cJSON *net = cJSON_AddObjectToObject(doc, "network");
    bool ok = result_json_add_count(net, "groups", (uint64_t)res->groups);
    ok = ok && result_json_add_count(net, "routers", (uint64_t)res->routers);
    ok = ok && result_json_add_count(net, "nodes", (uint64_t)res->nodes);
    return ok && result_json_add_count(net, "radix", (uint64_t)res->radix);
}

static bool result_json_add_load(cJSON *doc, const struct result *res)
{
    cJSON *load = cJSON_AddObjectToObject(doc, "load");
    bool ok = result_json_add_number(load, "offered", res->offered);
    ok = ok && result_json_add_number(load, "injected", res->injected);
    return ok && result_json_add_number(load, "accepted", res->accepted);
}

static bool result_json_add_packets(cJSON *doc, const struct result *res)
{
    cJSON *packets = cJSON_AddObjectToObject(doc, "packets");
    bool ok = result_json_add_count(packets, "generated", res->generated);
    ok = ok && result_json_add_count(packets, "refused", res->refused);
    ok = ok && result_json_add_count(packets, "injected", res->injected_packets);
    ok = ok && result_json_add_count(packets, "delivered", res->delivered);
    return ok && result_json_add_count(packets, "in_flight_at_end", res->in_flight_at_end);
}

static bool result_json_add_latency(cJSON *doc, const struct result *res)
{
    cJSON *lat = cJSON_AddObjectToObject(doc, "latency");
    bool ok = result_json_add_number(lat, "mean", res->latency_mean);
    ok = ok && result_json_add_number(lat, "p50", res->latency_p50);
    ok = ok && result_json_add_number(lat, "p95", res->latency_p95);
    ok = ok && result_json_add_number(lat, "p99", res->latency_p99);
    ok = ok && result_json_add_number(lat, "max", res->latency_max);
    cJSON *breakdown = ok ? cJSON_AddObjectToObject(lat, "breakdown") : NULL;
    for (int k = 0; ok && k < WAIT_KINDS; k++)
        ok = result_json_add_number(breakdown, result_json_wait_keys[k], res->breakdown[k]);
    return ok;
}

static bool result_json_add_paths(cJSON *doc, const struct result *res)
{
    cJSON *hops = cJSON_AddObjectToObject(doc, "hops");
    bool ok = result_json_add_number(hops, "local", res->hops_local);
    ok = ok && result_json_add_number(hops, "global", res->hops_global);
    cJSON *misrouted = ok ? cJSON_AddObjectToObject(doc, "misrouted") : NULL;
    ok = ok && result_json_add_number(misrouted, "global", res->misrouted_global);
    return ok && result_json_add_number(misrouted, "local", res->misrouted_local);
}

static bool result_json_add_fairness_arrays(cJSON *fair, const struct result *res)
{
    cJSON *per_router = cJSON_AddArrayToObject(fair, "per_router_injected");
    bool ok = per_router != NULL;
    for (int r = 0; ok && r < res->routers && res->per_router_injected; r++) {
        cJSON *item = result_json_create_count(res->per_router_injected[r]);
        ok = item && cJSON_AddItemToArray(per_router, item);
        if (!ok) cJSON_Delete(item);
    }
    cJSON *group0 = ok ? cJSON_AddArrayToObject(fair, "group0_injected_load") : NULL;
    ok = ok && group0 != NULL;
    for (int r = 0; ok && r < res->a && res->group0_injected_load; r++) {
        cJSON *item = cJSON_CreateNumber(res->group0_injected_load[r]);
        ok = item && cJSON_AddItemToArray(group0, item);
        if (!ok) cJSON_Delete(item);
    }
    return ok;
}

static bool result_json_add_fairness(cJSON *doc, const struct result *res)
{
    const struct fairness *f = &res->fairness;
    cJSON *fair = cJSON_AddObjectToObject(doc, "fairness");
    bool ok = result_json_add_number(fair, "min_injected_load", f->min_injected_load);
    ok = ok && result_json_add_number(fair, "min_injected_pct_of_offered",
                                      f->min_injected_pct_of_offered);
    /* max/min is infinite when a router injected nothing. */
    if (f->starved_routers > 0)
        ok = ok && cJSON_AddNullToObject(fair, "max_min") != NULL;
    else
        ok = ok && result_json_add_number(fair, "max_min", f->max_min);
    ok = ok && result_json_add_count(fair, "starved_routers", (uint64_t)f->starved_routers);
    ok = ok && result_json_add_number(fair, "cov", f->cov);
    return ok && result_json_add_fairness_arrays(fair, res);
}

static bool result_json_add_timing(cJSON *doc, const struct result *res)
{
    cJSON *timing = cJSON_AddObjectToObject(doc, "timing");
    bool ok = result_json_add_number(timing, "wall_seconds", res->wall_seconds);
    ok = ok && result_json_add_number(timing, "cycles_per_second", res->cycles_per_second);
    return ok && result_json_add_number(timing, "router_cycles_per_second",
                                        res->router_cycles_per_second);
}

char *result_json_render(const struct sim_config *cfg, const struct result *res,
                         bool include_timing)
{
    cJSON *doc = cJSON_CreateObject();
    bool ok = doc != NULL && result_json_add_header(doc) && result_json_add_config(doc, cfg) &&
              result_json_add_network(doc, res) && result_json_add_load(doc, res) &&
              result_json_add_packets(doc, res) && result_json_add_latency(doc, res) &&
              result_json_add_paths(doc, res) && result_json_add_fairness(doc, res) &&
              (!include_timing || result_json_add_timing(doc, res));
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
    if (!tmp) return result_json_fail(path, ENOMEM, err, err_len);
    snprintf(tmp, len, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    int error = 0;
    if (fd >= 0)
        (void)fchmod(fd, 0644); /* mkstemp creates 0600; a result is for everyone to read */
    if (fd < 0)
        error = errno;
    else if (result_json_fill(fd, text) != 0 || rename(tmp, path) != 0)
        error = errno;
    if (error && fd >= 0) unlink(tmp);
    free(tmp);
    return error ? result_json_fail(path, error, err, err_len) : 0;
}

int result_json_write(const char *path, const struct sim_config *cfg, const struct result *res,
                      char *err, int err_len)
{
    char *text = result_json_render(cfg, res, true);
    if (!text) return result_json_fail(path, ENOMEM, err, err_len);
    int rc = result_json_write_text(path, text, err, err_len);
    free(text);
    return rc;
}
