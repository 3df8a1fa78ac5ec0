/* result_schema: the shape of the result document (src/METRICS.md), defined once: its sections
 * and fields with their JSON types, units and meanings, where each value is read from, and
 * the key figures that sweep.json and the plot scripts know by name. result_json renders the
 * document from it, sweep_merge takes its figures from it, `dfsim schema` prints it.
 *
 * A section is a list of fields read from one C struct (its `reads`), by offset: the same
 * section can be rendered wherever that struct is, and an object field says how to find the
 * struct of its section from its own (`locate`). */
#ifndef DFSIM_RESULT_SCHEMA_H
#define DFSIM_RESULT_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The JSON type of a field. */
enum result_type {
    RESULT_COUNT,          /* an integer >= 0, written as raw text so 64-bit counts stay exact */
    RESULT_NUMBER,         /* a double */
    RESULT_NUMBER_OR_NULL, /* a double, or null where the field's null_when says so */
    RESULT_STRING,
    RESULT_COUNT_ARRAY,  /* an array of counts */
    RESULT_NUMBER_ARRAY, /* an array of doubles */
    RESULT_BOOL,         /* true or false */
    RESULT_OBJECT,       /* a nested section */
    RESULT_OBJECT_ARRAY, /* an array of objects of one section (the jobs) */
    RESULT_SETTINGS,     /* the resolved config, rendered from the settings schema */
};

/* The C type a value is stored as, derived from the struct member by RESULT_AT. */
enum result_storage {
    RESULT_STORED_NOWHERE, /* objects and the settings */
    RESULT_STORED_INT,
    RESULT_STORED_U64,
    RESULT_STORED_DOUBLE,
    RESULT_STORED_STRING,      /* const char * */
    RESULT_STORED_BOOL,
    RESULT_STORED_U64_ARRAY,    /* pointer to uint64_t, its length in an int member */
    RESULT_STORED_DOUBLE_ARRAY, /* pointer to double, its length in an int member */
    RESULT_STORED_OBJECT_ARRAY  /* pointer to structs, its length in an int member */
};

#define RESULT_STORAGE_OF(lvalue)                                                                  \
    _Generic((lvalue),                                                                             \
        int: RESULT_STORED_INT,                                                                    \
        uint64_t: RESULT_STORED_U64,                                                               \
        double: RESULT_STORED_DOUBLE,                                                              \
        bool: RESULT_STORED_BOOL,                                                                  \
        const char *: RESULT_STORED_STRING,                                                        \
        const uint64_t *: RESULT_STORED_U64_ARRAY,                                                 \
        uint64_t *: RESULT_STORED_U64_ARRAY,                                                       \
        const double *: RESULT_STORED_DOUBLE_ARRAY,                                                \
        double *: RESULT_STORED_DOUBLE_ARRAY)

/* Where a field's value is: MEMBER of struct TYPE (a member of another C type does not compile).
 * RESULT_ARRAY_AT also names the int member holding the array's length. */
#define RESULT_AT(TYPE, MEMBER)                                                                    \
    .storage = RESULT_STORAGE_OF(((TYPE *)0)->MEMBER), .offset = offsetof(TYPE, MEMBER)
#define RESULT_ARRAY_AT(TYPE, MEMBER, LENGTH)                                                      \
    RESULT_AT(TYPE, MEMBER), .length_offset = offsetof(TYPE, LENGTH)
/* An array of structs, each rendered with the field's section (which reads that struct). */
#define RESULT_OBJECTS_AT(TYPE, MEMBER, LENGTH)                                                    \
    .storage = RESULT_STORED_OBJECT_ARRAY, .offset = offsetof(TYPE, MEMBER),                       \
    .length_offset = offsetof(TYPE, LENGTH), .element_size = sizeof *((TYPE *)0)->MEMBER

/* A key figure: a scalar of the document that sweep.json and the plot scripts know by name. */
struct result_figure {
    const char *name;      /* e.g. "latency_mean" for latency.mean; NULL: not a figure */
    int sweep_rank;        /* its place among the figures of sweep.json's points, from 1;
                              0: not copied into sweep.json */
    bool averaged;         /* sweep.json's groups give its mean and ci95 over the seeds
                              (from the points: needs a sweep_rank) */
    const char *nulls_key; /* groups count the seeds whose value is null under this key */
};

struct result_section;

struct result_field {
    const char *key;
    enum result_type type;
    const char *unit;    /* "" when it has none */
    const char *meaning; /* one line, for `dfsim schema` and the README */
    enum result_storage storage;
    size_t offset;        /* of the value in the struct the section reads */
    size_t length_offset; /* arrays: of the int holding their length */
    size_t element_size;  /* RESULT_OBJECT_ARRAY: of one struct of the array */
    /* RESULT_NUMBER_OR_NULL: the value is written as null when this returns true. */
    bool (*null_when)(const void *source);
    /* Optional: the field is left out of the document when this returns true (the sections of
     * jobs exist only in runs with jobs, so that other documents stay as they were). */
    bool (*absent_when)(const void *source);
    const char *absent_meaning; /* when it is absent, for `dfsim schema` ("without jobs") */
    /* RESULT_OBJECT, RESULT_OBJECT_ARRAY: the section, and for an object the struct it reads
     * found from this field's struct (NULL: the same struct). */
    const struct result_section *section;
    const void *(*locate)(const void *source);
    bool measured; /* wall-clock figures, not a function of the config: may be left out */
    struct result_figure figure;
};

struct result_section {
    const char *name;  /* names it in `dfsim schema --json`, where fields refer to it */
    const char *reads; /* the C struct its fields are read from */
    const struct result_field *fields;
    int n_fields;
};

/* The whole document, read from a struct result (include/stats.h). */
extern const struct result_section result_schema_document;

/* ---- reading values from the struct a section reads ---- */

uint64_t result_field_count(const struct result_field *f, const void *source);
double result_field_number(const struct result_field *f, const void *source);
bool result_field_is_null(const struct result_field *f, const void *source);
const char *result_field_string(const struct result_field *f, const void *source);
/* Arrays: their length (0 when the pointer is NULL) and element i. */
int result_field_length(const struct result_field *f, const void *source);
uint64_t result_field_count_at(const struct result_field *f, const void *source, int i);
double result_field_number_at(const struct result_field *f, const void *source, int i);
bool result_field_bool(const struct result_field *f, const void *source);
/* Arrays of objects: element i (the struct the field's section reads). */
const void *result_field_object_at(const struct result_field *f, const void *source, int i);
/* Whether the field is left out for this source (its absent_when). */
bool result_field_is_absent(const struct result_field *f, const void *source);
/* Objects: the struct their section reads. */
const void *result_field_object(const struct result_field *f, const void *source);

/* "count", "number", "number or null", "string", "array of counts", ... */
const char *result_type_name(enum result_type type);

/* ---- walking the table ---- */

#define RESULT_PATH_LEN 128

/* Calls visit for every field of the section and, depth first, of the sections of its object
 * fields, in document order; path is the dotted key path ("latency.breakdown.minimal_links";
 * in an array of objects "jobs[].load.offered").
 * Stops at the first non-zero return of visit and returns it. */
int result_schema_walk(const struct result_section *section,
                       int (*visit)(void *ctx, const char *path, const struct result_field *f),
                       void *ctx);

/* The field at a dotted path of the document, or NULL. */
const struct result_field *result_schema_find(const char *path);

#define RESULT_FIGURES_MAX 32

struct result_figure_at {
    const struct result_field *field;
    const struct result_figure *figure; /* the field's, or a job figure's (see below) */
    char path[RESULT_PATH_LEN];
};

struct result_figures {
    int n;
    struct result_figure_at items[RESULT_FIGURES_MAX];
};

/* The key figures of the document: those of sweep.json by sweep_rank, then the others in
 * document order. Figures inside the jobs' objects are not among them. */
void result_schema_figures(struct result_figures *out);
/* The key figures of a job's object (paths relative to it, "messages.latency.median"), in
 * the same order: sweep.json gives them per job. */
void result_schema_job_figures(struct result_figures *out);

#endif
