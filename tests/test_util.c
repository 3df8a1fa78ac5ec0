/* test_util: helpers shared by the suites: configs from overrides, running commands. */
#include "test_util.h"

#include "result_json.h"
#include "sim.h"
#include "workload.h"
#include "topology.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void test_config(struct sim_config *cfg, const char *const *overrides, int n)
{
    char err[CONFIG_ERROR_LEN];
    if (config_load(NULL, overrides, n, cfg, err) == 0)
        return;
    fprintf(stderr, "\ntest_config: %s\n", err);
    if (!CU_get_current_test())
        abort(); /* outside a test there is no way to fail softly */
    CU_FAIL_FATAL("test_config: invalid overrides (message above)");
}

char *test_run_document(const struct sim_config *cfg, bool stepped)
{
    char err[256];
    struct sim *sim = sim_create(cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    if (!stepped) {
        CU_ASSERT_EQUAL(sim_run(sim, NULL, NULL), SIM_OK);
    } else {
        struct workload *w = sim->workload;
        while (sim->net.cycle < sim->total_cycles && sim_step(sim) == SIM_OK &&
               !(w && workload_finished(w)))
            ;
        sim->capped = w && w->has_closed && !workload_finished(w) &&
                      sim->net.cycle >= sim->total_cycles;
    }
    struct result res;
    memset(&res, 0, sizeof res);
    CU_ASSERT_EQUAL_FATAL(sim_summarize(sim, &res), 0);
    char *doc = result_json_render(cfg, &res, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    result_free(&res);
    sim_destroy(sim);
    return doc;
}

void test_dragonfly(struct topology *t, int p, int a, int h, int arrangement)
{
    char sp[32], sa[32], sh[32], err[256];
    snprintf(sp, sizeof sp, "topology.p=%d", p);
    snprintf(sa, sizeof sa, "topology.a=%d", a);
    snprintf(sh, sizeof sh, "topology.h=%d", h);
    const char *ov[] = {sp, sa, sh};
    struct sim_config cfg;
    test_config(&cfg, ov, 3);
    cfg.topology.arrangement = arrangement;
    if (topology_create(t, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "\ntest_dragonfly: %s\n", err);
        CU_FAIL_FATAL("test_dragonfly: the topology does not build");
    }
}

static struct setting_ref test_setting(const char *full)
{
    struct setting_ref r;
    if (settings_find_full(full, &r) != 0) {
        fprintf(stderr, "\ntest_setting: no setting %s\n", full);
        abort();
    }
    return r;
}

int test_setting_int(const struct sim_config *cfg, const char *full)
{
    struct setting_ref r = test_setting(full);
    return *(const int *)settings_value(cfg, &r);
}

const char *test_setting_name(const struct sim_config *cfg, const char *full)
{
    struct setting_ref r = test_setting(full);
    if (r.row->type == SETTING_STRING)
        return settings_value(cfg, &r);
    return settings_choices(r.row)[*(const int *)settings_value(cfg, &r)];
}

void test_set_int(struct sim_config *cfg, const char *full, int value)
{
    struct setting_ref r = test_setting(full);
    *(int *)((char *)cfg + r.offset) = value;
}

void test_set_name(struct sim_config *cfg, const char *full, const char *name)
{
    struct setting_ref r = test_setting(full);
    int index = settings_choice_index(r.row, name);
    if (index < 0) {
        fprintf(stderr, "\ntest_set_name: %s has no value %s\n", full, name);
        abort();
    }
    *(int *)((char *)cfg + r.offset) = index;
}

/* Appends what fits of `chunk` to out; the rest is read and dropped so the child never
 * blocks on a full pipe. */
static void test_append(char *out, int out_len, int *used, const char *chunk, size_t n)
{
    size_t room = out_len > *used + 1 ? (size_t)(out_len - *used - 1) : 0;
    size_t take = n < room ? n : room;
    memcpy(out + *used, chunk, take);
    *used += (int)take;
    out[*used] = '\0';
}

int test_run_command(const char *command, char *out, int out_len)
{
    size_t len = strlen(command) + 16;
    char *full = malloc(len);
    if (!full)
        return -1;
    snprintf(full, len, "{ %s\n} 2>&1", command);
    FILE *pipe = popen(full, "r");
    free(full);
    if (!pipe)
        return -1;
    char chunk[4096];
    int used = 0;
    size_t n;
    if (out_len > 0)
        out[0] = '\0';
    while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0)
        if (out_len > 0)
            test_append(out, out_len, &used, chunk, n);
    int status = pclose(pipe);
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int test_tmpdir_create(char dir[64], const char *tag)
{
    snprintf(dir, 64, "/tmp/dfsim-%.20s-XXXXXX", tag);
    return mkdtemp(dir) ? 0 : -1;
}

int test_tmpdir_remove(const char *dir)
{
    char command[128], out[256];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    return test_run_command(command, out, sizeof out) == 0 ? 0 : -1;
}

int test_add_suite(const char *name, int (*init)(void), int (*cleanup)(void),
                   const struct test_case *cases, size_t n)
{
    CU_pSuite s = CU_add_suite(name, init, cleanup);
    if (!s)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!CU_add_test(s, cases[i].name, cases[i].fn))
            return -1;
    return 0;
}

void test_bfs_one_global(const struct topology *t, int dst, int *dist, int *queue)
{
    int n = t->routers, head = 0, tail = 0;
    for (int i = 0; i < 2 * n; i++)
        dist[i] = -1;
    /* From dst backwards (links are symmetric): state (r, used) = r may still cross
     * 1 - used global links. */
    dist[dst] = dist[n + dst] = 0;
    queue[tail++] = dst;
    queue[tail++] = n + dst;
    while (head < tail) {
        int state = queue[head++], r = state % n, used = state / n;
        const struct router_kind *kind = topology_kind_of(t, r);
        for (int port = kind->first[PORT_LOCAL]; port < kind->radix; port++) {
            int global = kind->port_class[port] == PORT_GLOBAL;
            if (global && used == 0)
                continue; /* the state before this hop would have crossed two */
            int prev = topology_neighbour(t, r, port) + (used - global) * n;
            if (dist[prev] < 0) {
                dist[prev] = dist[state] + 1;
                queue[tail++] = prev;
            }
        }
    }
}

uint64_t test_closer_ports(const struct topology *t, int r, const int *dist)
{
    const struct router_kind *kind = topology_kind_of(t, r);
    uint64_t ports = 0;
    for (int port = kind->first[PORT_LOCAL]; port < kind->radix; port++) {
        int far = topology_neighbour(t, r, port);
        int after = kind->port_class[port] == PORT_GLOBAL ? t->routers + far : far;
        if (dist[after] >= 0 && dist[after] == dist[r] - 1)
            ports |= 1ull << port;
    }
    return ports;
}

void test_write_text(const char *dir, const char *name, const char *text, char path[128])
{
    snprintf(path, 128, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

void test_load_config_text(const char *dir, const char *name, const char *text,
                           const char *const *ov, int n, struct sim_config *cfg)
{
    char path[128], err[CONFIG_ERROR_LEN];
    test_write_text(dir, name, text, path);
    int rc = config_load(path, ov, n, cfg, err);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

void test_grow_zeroed(void **items, uint32_t *len, uint32_t need, size_t size)
{
    if (need <= *len)
        return;
    char *grown = realloc(*items, (size_t)need * size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(grown);
    memset(grown + (size_t)*len * size, 0, (size_t)(need - *len) * size);
    *items = grown;
    *len = need;
}

bool test_run_checked(struct sim *sim, const char *what, const char *detail)
{
    sim->check_invariants = true;
    enum sim_status status = sim_run(sim, NULL, NULL);
    CU_ASSERT_EQUAL(status, SIM_OK);
    if (status != SIM_OK)
        fprintf(stderr, "\n  %s %s: %s\n", what, detail, sim->net.message);
    return status == SIM_OK;
}
