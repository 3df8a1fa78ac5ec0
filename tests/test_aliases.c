/* The literature's names for setting values (conf/GLOSSARY.md): each alias a config file or
 * --set accepts resolves to the dfsim value (and, for the aliases that stand for two settings,
 * sets the second one too); the config, hence the result document and the sweep hash, holds
 * the dfsim values only; a value that is neither is refused with the values and the shorthand
 * listed, exit status 2. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "settings.h"
#include "sweep.h"
#include "test_util.h"

static char alias_dir[64];

static int test_aliases_init(void)
{
    return test_tmpdir_create(alias_dir, "aliases");
}

static int test_aliases_cleanup(void)
{
    return test_tmpdir_remove(alias_dir);
}

struct alias_case {
    const char *set;    /* the --set written with the alias */
    const char *key;    /* the setting */
    const char *value;  /* the dfsim value it must hold */
    const char *key2;   /* NULL, or the second setting the alias sets */
    const char *value2; /* its value: a name, or an integer as text */
};

static const struct alias_case alias_cases[] = {
    {"traffic.pattern=UN", "traffic.pattern", "uniform", NULL, NULL},
    {"traffic.pattern=un", "traffic.pattern", "uniform", NULL, NULL},
    {"traffic.pattern=ADVc", "traffic.pattern", "adversarial_consecutive", NULL, NULL},
    {"traffic.pattern=ADVC", "traffic.pattern", "adversarial_consecutive", NULL, NULL},
    {"traffic.pattern=ADV", "traffic.pattern", "adversarial", "traffic.offset", "1"},
    {"traffic.pattern=ADV+1", "traffic.pattern", "adversarial", "traffic.offset", "1"},
    {"traffic.pattern=ADV+2", "traffic.pattern", "adversarial", "traffic.offset", "2"},
    {"traffic.pattern=\"adv+5\"", "traffic.pattern", "adversarial", "traffic.offset", "5"},
    {"traffic.pattern=Bit-Complement", "traffic.pattern", "bit_complement", NULL, NULL},
    {"routing.mechanism=MIN", "routing.mechanism", "min", NULL, NULL},
    {"routing.mechanism=VAL", "routing.mechanism", "valiant", "routing.valiant_target", "group"},
    {"routing.mechanism=VAL-any", "routing.mechanism", "valiant", "routing.valiant_target",
     "router"},
    {"routing.mechanism=OBL", "routing.mechanism", "oblivious", NULL, NULL},
    {"routing.mechanism=Obl-CRG", "routing.mechanism", "oblivious", "routing.global_policy", "crg"},
    {"routing.mechanism=Obl-RRG", "routing.mechanism", "oblivious", "routing.global_policy", "rrg"},
    {"routing.mechanism=PB", "routing.mechanism", "piggyback", NULL, NULL},
    {"routing.mechanism=PB-CRG", "routing.mechanism", "piggyback", "routing.global_policy", "crg"},
    {"routing.mechanism=OLM", "routing.mechanism", "in_transit", NULL, NULL},
    {"routing.mechanism=In-Transit", "routing.mechanism", "in_transit", NULL, NULL},
    {"routing.mechanism=OLM-MM", "routing.mechanism", "in_transit", "routing.global_policy", "mm"},
    {"routing.mechanism=IT-CRG", "routing.mechanism", "in_transit", "routing.global_policy", "crg"},
    {"routing.mechanism=UGAL", "routing.mechanism", "ugal", NULL, NULL},
    {"routing.mechanism=UGAL-L", "routing.mechanism", "ugal", NULL, NULL},
    {"routing.mechanism=UGAL-G", "routing.mechanism", "ugal_g", NULL, NULL},
    {"routing.mechanism=FPAR", "routing.mechanism", "fpar", NULL, NULL},
    {"router.arbiter=RR", "router.arbiter", "round_robin", NULL, NULL},
    {"router.arbiter=AGE", "router.arbiter", "age", NULL, NULL},
    {"routing.global_policy=CRG", "routing.global_policy", "crg", NULL, NULL},
    {"routing.global_policy=RRG", "routing.global_policy", "rrg", NULL, NULL},
    {"routing.global_policy=NRG", "routing.global_policy", "nrg", NULL, NULL},
    {"routing.global_policy=MM", "routing.global_policy", "mm", NULL, NULL},
    {"topology.arrangement=Palmtree", "topology.arrangement", "palmtree", NULL, NULL},
    {"topology.kind=Dragonfly+", "topology.kind", "dragonfly_plus", NULL, NULL},
};

/* The value of a setting as text: a choice's name, or an integer. */
static void alias_value_text(const struct sim_config *cfg, const char *key, char *buf, size_t len)
{
    struct setting_ref r;
    CU_ASSERT_FATAL(settings_find_full(key, &r) == 0);
    settings_format(cfg, &r, false, buf, len);
}

static void test_each_alias_resolves(void)
{
    for (size_t i = 0; i < sizeof alias_cases / sizeof alias_cases[0]; i++) {
        const struct alias_case *c = &alias_cases[i];
        struct sim_config cfg;
        char err[CONFIG_ERROR_LEN], got[64];
        const char *ov[] = {c->set};
        int rc = config_load(NULL, ov, 1, &cfg, err);
        if (rc != 0)
            printf("\n  --set %s: %s\n", c->set, err);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        alias_value_text(&cfg, c->key, got, sizeof got);
        if (strcmp(got, c->value) != 0)
            printf("\n  --set %s: %s = %s (expected %s)\n", c->set, c->key, got, c->value);
        CU_ASSERT_STRING_EQUAL(got, c->value);
        if (!c->key2)
            continue;
        alias_value_text(&cfg, c->key2, got, sizeof got);
        if (strcmp(got, c->value2) != 0)
            printf("\n  --set %s: %s = %s (expected %s)\n", c->set, c->key2, got, c->value2);
        CU_ASSERT_STRING_EQUAL(got, c->value2);
    }
}

/* Every alias of the table names a value some setting offers. */
static void test_alias_table_names_values(void)
{
    for (const struct setting_alias *a = setting_aliases; a->alias; a++) {
        bool found = false;
        const char *const groups[] = {"topology", "router", "routing", "traffic"};
        for (size_t g = 0; g < sizeof groups / sizeof groups[0] && !found; g++) {
            char full[64];
            const char *const names[] = {"kind",      "arrangement",   "arbiter",
                                         "mechanism", "global_policy", "pattern"};
            for (size_t n = 0; n < sizeof names / sizeof names[0] && !found; n++) {
                struct setting_ref r;
                snprintf(full, sizeof full, "%s.%s", groups[g], names[n]);
                found = settings_find_full(full, &r) == 0 &&
                        settings_choice_index(r.row, a->value) >= 0;
            }
        }
        if (!found)
            printf("\n  alias %s: no setting offers '%s'\n", a->alias, a->value);
        CU_ASSERT(found);
    }
}

/* A config written with aliases is the config written with dfsim's values: same hash, the
 * values the document echoes. */
static void test_aliases_leave_the_config_canonical(void)
{
    static const char with_aliases[] = "routing = { mechanism = \"VAL-any\"; };\n"
                                       "router = { arbiter = \"AGE\"; };\n"
                                       "traffic = { pattern = \"ADV+2\"; load = 0.1; };\n";
    static const char canonical[] =
        "routing = { mechanism = \"valiant\"; valiant_target = \"router\"; };\n"
        "router = { arbiter = \"age\"; };\n"
        "traffic = { pattern = \"adversarial\"; load = 0.1; offset = 2; };\n";
    struct sim_config a, b;
    const char *const ov[] = {"topology.h=2", "topology.a=4", "topology.p=2"};
    test_load_config_text(alias_dir, "aliases.cfg", with_aliases, ov, 3, &a);
    test_load_config_text(alias_dir, "canonical.cfg", canonical, ov, 3, &b);
    char ha[SWEEP_HASH_LEN], hb[SWEEP_HASH_LEN];
    CU_ASSERT_EQUAL_FATAL(sweep_config_hash(&a, ha), 0);
    CU_ASSERT_EQUAL_FATAL(sweep_config_hash(&b, hb), 0);
    CU_ASSERT_STRING_EQUAL(ha, hb);
    CU_ASSERT_STRING_EQUAL(test_setting_name(&a, "traffic.pattern"), "adversarial");
    CU_ASSERT_EQUAL(test_setting_int(&a, "traffic.offset"), 2);
}

/* The second setting an alias writes counts as written where the alias is. */
static void test_alias_origin(void)
{
    struct sim_config cfg;
    struct config_sources sources;
    char err[CONFIG_ERROR_LEN], path[128];
    test_write_text(alias_dir, "origin.cfg", "traffic = {\n  pattern = \"ADV+3\";\n};\n", path);
    CU_ASSERT_EQUAL_FATAL(config_load_sources(path, NULL, 0, &cfg, &sources, err), 0);
    int seen = 0;
    for (int i = 0; i < sources.count; i++)
        if (strcmp(sources.items[i].key, "traffic.offset") == 0) {
            seen++;
            CU_ASSERT_STRING_EQUAL(sources.items[i].value, "3");
            CU_ASSERT(strstr(sources.items[i].where, "origin.cfg:2") != NULL);
        }
    CU_ASSERT_EQUAL(seen, 1);
    config_sources_free(&sources);
}

struct bad_alias {
    const char *set;
    const char *expected; /* the message, exactly (after "--set SET: ") */
};

static const struct bad_alias bad_aliases[] = {
    {"traffic.pattern=ADV+x",
     "traffic.pattern: unknown value 'ADV+x' (expected one of: uniform, adversarial, "
     "adversarial_consecutive, bit_complement, permutation; or the shorthand UN, ADV, ADV+i, "
     "ADVc)"},
    {"traffic.pattern=ADV+0",
     "traffic.pattern: 'ADV+0' is \"adversarial\" with traffic.offset: 0 is out of range "
     "(expected an integer >= 1)"},
    {"routing.mechanism=VAL-all",
     "routing.mechanism: unknown value 'VAL-all' (expected one of: min, valiant, oblivious, "
     "piggyback, in_transit, ugal, ugal_g, fpar; or the shorthand VAL, VAL-any, Obl, Obl-CRG, "
     "Obl-RRG, PB, PB-CRG, PB-RRG, OLM, OLM-CRG, OLM-RRG, OLM-NRG, OLM-MM, IT, IT-CRG, IT-RRG, "
     "IT-NRG, IT-MM, UGAL-L, UGAL-G)"},
    {"router.arbiter=FIFO",
     "router.arbiter: unknown value 'FIFO' (expected one of: round_robin, age; or the shorthand "
     "RR)"},
    {"routing.global_policy=XRG",
     "routing.global_policy: unknown value 'XRG' (expected one of: crg, rrg, nrg, mm)"},
};

static void test_unknown_values_list_the_allowed(void)
{
    for (size_t i = 0; i < sizeof bad_aliases / sizeof bad_aliases[0]; i++) {
        struct sim_config cfg;
        char err[CONFIG_ERROR_LEN], expected[CONFIG_ERROR_LEN];
        const char *ov[] = {bad_aliases[i].set};
        CU_ASSERT_EQUAL(config_load(NULL, ov, 1, &cfg, err), -1);
        snprintf(expected, sizeof expected, "--set %s: %s", bad_aliases[i].set,
                 bad_aliases[i].expected);
        if (strcmp(err, expected) != 0)
            printf("\n  got:      %s\n  expected: %s\n", err, expected);
        CU_ASSERT_STRING_EQUAL(err, expected);
    }
}

/* A job's pattern takes the aliases too; ADV+i sets the job's own offset (which a network
 * pattern of a job reads). */
static void test_job_pattern_aliases(void)
{
    char err[CONFIG_ERROR_LEN], path[128], got[64];
    struct sim_config cfg;
    struct setting_ref r;
    test_write_text(alias_dir, "job.cfg",
                    "jobs = ( { name = \"a\"; nodes = 4; pattern = \"UN\"; load = 0.1; } );\n",
                    path);
    CU_ASSERT_EQUAL_FATAL(config_load(path, NULL, 0, &cfg, err), 0);
    CU_ASSERT_EQUAL_FATAL(settings_find_in(&cfg, "jobs.a.pattern", &r), 0);
    settings_format(&cfg, &r, false, got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "uniform");
    test_write_text(alias_dir, "job_adv.cfg",
                    "topology = { h = 2; a = 4; p = 2; };\n"
                    "jobs = ( { name = \"a\"; nodes = 72; pattern = \"ADV+2\"; load = 0.1; } );\n",
                    path);
    int rc = config_load(path, NULL, 0, &cfg, err);
    if (rc != 0)
        printf("\n  %s\n", err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(settings_find_in(&cfg, "jobs.a.pattern", &r), 0);
    settings_format(&cfg, &r, false, got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "adversarial");
    CU_ASSERT_EQUAL_FATAL(settings_find_in(&cfg, "jobs.a.offset", &r), 0);
    settings_format(&cfg, &r, false, got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "2");
    /* the offset's own checks apply: 9 groups */
    const char *const ov[] = {"jobs.a.pattern=ADV+9"};
    CU_ASSERT_EQUAL(config_load(path, ov, 1, &cfg, err), -1);
    CU_ASSERT(strstr(err, "jobs.a.offset: 9 is a multiple of the 9 groups") != NULL);
}

/* On the command line: accepted, or refused with exit status 2 and the values listed. */
static void test_alias_exit_status(void)
{
    char out[4096];
    CU_ASSERT_EQUAL(test_run_command("./dfsim info conf/default.cfg --set traffic.pattern=ADVc "
                                     "--set routing.mechanism=VAL-any --origins",
                                     out, sizeof out),
                    0);
    CU_ASSERT(strstr(out, "traffic.pattern = \"adversarial_consecutive\"") != NULL);
    CU_ASSERT(strstr(out, "routing.valiant_target = \"router\"") != NULL);
    CU_ASSERT_EQUAL(test_run_command("./dfsim info conf/default.cfg --set traffic.pattern=ADVx",
                                     out, sizeof out),
                    2);
    CU_ASSERT(strstr(out, "(expected one of: uniform, adversarial, adversarial_consecutive, "
                          "bit_complement, permutation; or the shorthand UN, ADV, ADV+i, ADVc)") !=
              NULL);
}

int test_aliases_register(void)
{
    static const struct test_case tests[] = {
        {"each alias resolves to dfsim's value", test_each_alias_resolves},
        {"every alias names a value a setting offers", test_alias_table_names_values},
        {"aliases leave the config (and its hash) canonical",
         test_aliases_leave_the_config_canonical},
        {"an alias's second setting is written where the alias is", test_alias_origin},
        {"unknown values: the values and the shorthand listed",
         test_unknown_values_list_the_allowed},
        {"a job's pattern: aliases, ADV+i setting the job's offset", test_job_pattern_aliases},
        {"dfsim: accepted, or exit status 2", test_alias_exit_status},
    };
    return test_add_suite("aliases", test_aliases_init, test_aliases_cleanup, tests,
                          sizeof tests / sizeof tests[0]);
}
