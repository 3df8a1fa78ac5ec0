/* The CUnit test runner: every suite registers itself through one function listed here. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

typedef int (*suite_register_fn)(void);

static const struct {
    const char *name;
    suite_register_fn reg;
} suites[] = {
    {"topology", test_topology_register},
    {"cascade", test_cascade_register},
    {"ugal", test_ugal_register},
    {"far_end", test_far_end_register},
    {"dragonfly_plus", test_dragonfly_plus_register},
    {"routing_min", test_routing_min_register},
    {"routing", test_routing_register},
    {"arbiter", test_arbiter_register},
    {"sim", test_sim_register},
    {"stats", test_stats_register},
    {"observe", test_observe_register},
    {"json", test_json_register},
    {"config", test_config_register},
    {"aliases", test_aliases_register},
    {"cli", test_cli_register},
    {"invariants", test_invariants_register},
    {"fuzz", test_fuzz_register},
    {"robustness", test_robustness_register},
    {"sweep", test_sweep_register},
    {"placement", test_placement_register},
    {"job_traffic", test_job_traffic_register},
    {"motif", test_motif_register},
    {"links", test_links_register},
    {"workload", test_workload_register},
    {"throttle", test_throttle_register},
    {"job_routing", test_job_routing_register},
    {"requests", test_requests_register},
    {"job_inputs", test_job_inputs_register},
    {"config_include", test_config_include_register},
    {"core_layers", test_core_layers_register},
    {"plugin_layers", test_plugin_layers_register},
    {"trace", test_trace_register},
};

int main(int argc, char **argv)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        /* `dfsim-test NAME...` runs only the named suites. */
        int wanted = argc < 2;
        for (int a = 1; a < argc; a++)
            wanted |= strcmp(argv[a], suites[i].name) == 0;
        if (wanted && suites[i].reg() != 0) {
            fprintf(stderr, "cannot register suite %s\n", suites[i].name);
            return 1;
        }
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned failures = CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    printf("%u passed, %u failed\n", run - failures, failures);
    return failed ? 1 : 0;
}
