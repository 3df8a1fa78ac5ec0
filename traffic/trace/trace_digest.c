/* trace_digest: the digest of an OTF2 archive's files (see trace_digest.h). */
#include "trace_digest.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_FNV_OFFSET 14695981039346656037ull
#define TRACE_FNV_PRIME 1099511628211ull

static uint64_t digest_bytes(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= TRACE_FNV_PRIME;
    }
    return h;
}

/* A file's name (with its NUL, so that name and bytes cannot run into each other) and bytes;
 * a file that cannot be opened adds its name only. -1 when required and unreadable. */
static int digest_file(uint64_t *h, const char *path, const char *name, int required)
{
    *h = digest_bytes(*h, (const unsigned char *)name, strlen(name) + 1);
    FILE *f = fopen(path, "rb");
    if (!f)
        return required ? -1 : 0;
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        *h = digest_bytes(*h, buf, got);
    int bad = ferror(f);
    fclose(f);
    return bad ? -1 : 0;
}

static int digest_name_compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular entry of folder dir, in name order. */
static int digest_folder(uint64_t *h, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap * 2 + 16;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger) {
                rc = -1;
                break;
            }
            names = bigger;
        }
        if (!(names[n] = strdup(e->d_name))) {
            rc = -1;
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == 0)
        qsort(names, n, sizeof *names, digest_name_compare);
    for (size_t i = 0; i < n; i++) {
        char path[8192];
        int len = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (rc == 0)
            rc = len > 0 && (size_t)len < sizeof path ? digest_file(h, path, names[i], 0) : -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int trace_digest(const char *path, uint64_t *out)
{
    uint64_t h = TRACE_FNV_OFFSET;
    size_t len = strlen(path);
    const char *ext = len > 5 ? path + len - 5 : "";
    /* the archive's name: the anchor's without ".otf2" */
    size_t stem = strcmp(ext, ".otf2") == 0 ? len - 5 : len;
    char other[8192];
    if (stem + 6 > sizeof other || digest_file(&h, path, "anchor", 1) != 0)
        return -1;
    snprintf(other, sizeof other, "%.*s.def", (int)stem, path);
    if (digest_file(&h, other, "definitions", 0) != 0)
        return -1;
    snprintf(other, sizeof other, "%.*s", (int)stem, path);
    if (digest_folder(&h, other) != 0)
        return -1;
    *out = h;
    return 0;
}
