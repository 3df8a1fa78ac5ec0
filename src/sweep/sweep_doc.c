/* sweep_doc: point documents: metadata, atomic writes, reading back, listing a directory. */
#include "sweep_doc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model_version.h"

#define SWEEP_DOC_META_MARK ",\n\t\"sweep\":\t"

/* ---- metadata ---- */

static cJSON *sweep_doc_value(const struct sweep_value *v)
{
    char text[32];
    switch (v->type) {
    case SWEEP_INT: /* raw text keeps 64-bit integers exact */
        snprintf(text, sizeof text, "%lld", v->i);
        return cJSON_CreateRaw(text);
    case SWEEP_FLOAT:
        return cJSON_CreateNumber(v->f);
    case SWEEP_BOOL:
        return cJSON_CreateBool(v->b);
    case SWEEP_STRING:
        return cJSON_CreateString(v->s);
    }
    return NULL;
}

static cJSON *sweep_doc_point(const struct sweep *sw, const struct sweep_job *job)
{
    cJSON *point = cJSON_CreateObject();
    for (int a = 0; point && a < sw->n_axes; a++) {
        if (job->choice[a] < 0)
            continue;
        cJSON *item = sweep_doc_value(&sw->axes[a].values[job->choice[a]]);
        if (!item || !cJSON_AddItemToObject(point, sw->axes[a].key, item)) {
            cJSON_Delete(item);
            cJSON_Delete(point);
            return NULL;
        }
    }
    return point;
}

static bool sweep_doc_add_saturation(cJSON *meta, const struct sweep_variant *var, double load)
{
    cJSON *sat = cJSON_AddObjectToObject(meta, "saturation");
    return sat && cJSON_AddNumberToObject(sat, "tolerance", var->tolerance) &&
           cJSON_AddNumberToObject(sat, "resolution", var->resolution) &&
           cJSON_AddNumberToObject(sat, "load", load);
}

cJSON *sweep_doc_meta(const struct sweep *sw, const struct sweep_grid *grid, int j,
                      const char *hash, const double *load)
{
    const struct sweep_job *job = &grid->jobs[j];
    cJSON *meta = cJSON_CreateObject();
    cJSON *point = sweep_doc_point(sw, job);
    bool ok = meta && point && cJSON_AddStringToObject(meta, "name", sw->name) &&
              cJSON_AddStringToObject(meta, "variant", sw->variants[job->variant].name) &&
              cJSON_AddItemToObject(meta, "point", point);
    if (!ok)
        cJSON_Delete(point);
    ok = ok && cJSON_AddStringToObject(meta, "hash", hash) &&
         cJSON_AddNumberToObject(meta, "model_version", DFSIM_MODEL_VERSION) &&
         cJSON_AddNumberToObject(meta, "index", j);
    if (ok && load)
        ok = sweep_doc_add_saturation(meta, &sw->variants[job->variant], *load);
    if (!ok) {
        cJSON_Delete(meta);
        return NULL;
    }
    return meta;
}

/* ---- the text ---- */

char *sweep_doc_attach(const char *doc, const cJSON *meta)
{
    size_t len = strlen(doc);
    while (len > 0 && (doc[len - 1] == '\n' || doc[len - 1] == ' '))
        len--;
    if (len < 2 || doc[len - 1] != '}' || doc[len - 2] != '\n')
        return NULL;
    len -= 2; /* drop "\n}" */
    char *printed = cJSON_Print(meta);
    if (!printed)
        return NULL;
    size_t lines = 0;
    for (const char *p = printed; *p; p++)
        lines += *p == '\n';
    size_t total = len + strlen(SWEEP_DOC_META_MARK) + strlen(printed) + lines + 4;
    char *out = malloc(total);
    if (out) {
        memcpy(out, doc, len);
        char *o = out + len;
        o += sprintf(o, "%s", SWEEP_DOC_META_MARK);
        for (const char *p = printed; *p; p++) { /* nested one level deeper */
            *o++ = *p;
            if (*p == '\n')
                *o++ = '\t';
        }
        strcpy(o, "\n}\n");
    }
    free(printed);
    return out;
}

/* ---- files ---- */

int sweep_doc_mkdirs(const char *dir)
{
    char path[SWEEP_PATH_LEN];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Writes all of text to fd, then fsync: a node lost after the rename keeps a whole file. */
static int sweep_doc_fill(int fd, const char *text)
{
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0)
        return -1;
    return 0;
}

static int sweep_doc_fail(char *err, size_t len, const char *what, const char *path)
{
    snprintf(err, len, "cannot %s %s: %s", what, path, strerror(errno));
    return -1;
}

int sweep_doc_write(const char *dir, const char *file, const char *text, char *err, size_t len)
{
    char path[SWEEP_PATH_LEN], tmp[SWEEP_PATH_LEN + 16];
    if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return sweep_doc_fail(err, len, "write", file);
    }
    char *slash = strrchr(path, '/');
    *slash = '\0';
    if (sweep_doc_mkdirs(path) != 0)
        return sweep_doc_fail(err, len, "create", path);
    snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", path, slash + 1);
    *slash = '/';
    int fd = mkstemp(tmp);
    if (fd < 0)
        return sweep_doc_fail(err, len, "write", tmp);
    int rc = sweep_doc_fill(fd, text);
    if (close(fd) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
        return sweep_doc_fail(err, len, "write", path);
    }
    return 0;
}

char *sweep_doc_read_text(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0)
        return NULL;
    char *text = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (1 << 30))
        text = malloc((size_t)st.st_size + 1);
    size_t used = 0;
    while (text && used < (size_t)st.st_size) {
        ssize_t n = read(fd, text + used, (size_t)st.st_size - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    if (text)
        text[used] = '\0';
    return text;
}

cJSON *sweep_doc_load(const char *dir, const char *file)
{
    char path[SWEEP_PATH_LEN];
    if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path)
        return NULL;
    char *text = sweep_doc_read_text(path);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (doc && !cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        doc = NULL;
    }
    return doc;
}

int sweep_doc_replace_meta(const char *dir, const char *file, const cJSON *meta, char *err,
                           size_t len)
{
    return sweep_doc_rewrite(dir, file, dir, file, meta, err, len);
}

int sweep_doc_rewrite(const char *from_dir, const char *from, const char *dir, const char *file,
                      const cJSON *meta, char *err, size_t len)
{
    char path[SWEEP_PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", from_dir, from);
    char *text = sweep_doc_read_text(path);
    char *mark = NULL;
    for (char *p = text; p && (p = strstr(p, SWEEP_DOC_META_MARK)); p++)
        mark = p;
    char *out = NULL;
    if (mark) {
        strcpy(mark, "\n}");
        out = sweep_doc_attach(text, meta);
    }
    free(text);
    if (!out) {
        snprintf(err, len, "cannot update the sweep object of %s", path);
        return -1;
    }
    int rc = sweep_doc_write(dir, file, out, err, len);
    free(out);
    if (rc == 0 && (strcmp(from_dir, dir) != 0 || strcmp(from, file) != 0) && unlink(path) != 0) {
        snprintf(err, len, "cannot remove %s: %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}

bool sweep_doc_has_hash(const cJSON *doc, const char *hash)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(doc, "sweep");
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(meta, "hash");
    return cJSON_IsString(h) && strcmp(h->valuestring, hash) == 0;
}

bool sweep_doc_is_legacy(const cJSON *doc, const char *legacy_hash)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(doc, "sweep");
    return legacy_hash[0] && !cJSON_GetObjectItemCaseSensitive(meta, "model_version") &&
           sweep_doc_has_hash(doc, legacy_hash);
}

static const cJSON *sweep_doc_at(const cJSON *doc, const char *path)
{
    char key[64];
    const cJSON *item = doc;
    while (item && *path) {
        size_t n = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)(n < sizeof key ? n : sizeof key - 1), path);
        item = cJSON_GetObjectItemCaseSensitive(item, key);
        path += n + (path[n] == '.');
    }
    return item;
}

double sweep_doc_number(const cJSON *doc, const char *path)
{
    const cJSON *item = sweep_doc_at(doc, path);
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

bool sweep_doc_has(const cJSON *doc, const char *path)
{
    return sweep_doc_at(doc, path) != NULL;
}

/* ---- listing ---- */

static bool sweep_doc_is_json(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static int sweep_doc_compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The visible names of DIR, sorted (caller frees each and the array); NULL on failure. */
static char **sweep_doc_names(const char *dir, int *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    int cap = 0;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            char **bigger = realloc(names, (size_t)(cap = cap * 2 + 16) * sizeof *names);
            if (!bigger)
                break;
            names = bigger;
        }
        if (!(names[*n] = strdup(e->d_name)))
            break;
        (*n)++;
    }
    closedir(d);
    if (!names)
        names = malloc(sizeof *names);
    if (names)
        qsort(names, (size_t)*n, sizeof *names, sweep_doc_compare_names);
    return names;
}

static void sweep_doc_free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static int sweep_doc_scan_sub(const char *dir, const char *sub,
                              int (*visit)(void *ctx, const char *file), void *ctx)
{
    char path[SWEEP_PATH_LEN], file[SWEEP_PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    int n, rc = 0;
    char **names = sweep_doc_names(path, &n);
    for (int i = 0; names && rc == 0 && i < n; i++) {
        if (!sweep_doc_is_json(names[i]))
            continue;
        snprintf(file, sizeof file, "%.200s/%.1000s", sub, names[i]);
        rc = visit(ctx, file);
    }
    sweep_doc_free_names(names, names ? n : 0);
    return rc;
}

int sweep_doc_scan(const char *dir, int (*visit)(void *ctx, const char *file), void *ctx)
{
    int n, rc = 0;
    char **names = sweep_doc_names(dir, &n);
    if (!names)
        return -1;
    char path[SWEEP_PATH_LEN];
    struct stat st;
    for (int i = 0; rc == 0 && i < n; i++) {
        snprintf(path, sizeof path, "%.2000s/%.1000s", dir, names[i]);
        if (sweep_doc_is_json(names[i]) && strcmp(names[i], "sweep.json") != 0)
            rc = visit(ctx, names[i]);
        else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            rc = sweep_doc_scan_sub(dir, names[i], visit, ctx);
    }
    sweep_doc_free_names(names, n);
    return rc;
}
