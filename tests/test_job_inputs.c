/* test_job_inputs: bad job lists, one table. Each row is a config (and at most one --set) that
 * the sanitized binary must refuse with exit 2 and one line "WHERE: KEY: MESSAGE", WHERE being
 * the file and line (or the --set argument) of the setting at fault; or accept with exit 0.
 * Then every numeric job key's range edges, generated from the job table: one past an edge is
 * refused as out of range with that key, the edge itself is not. */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "job_config.h"
#include "settings.h"
#include "test_util.h"

static char inputs_dir[64];
static char repo_root[512];

/* One bad input. `text` may hold {R} (the repository root, for @include of a shipped config)
 * and {D} (this suite's scratch folder, for absolute allocation files). line: the line of
 * the config the message names; 0 when the message names the --set argument. */
struct job_input {
    const char *text;
    const char *set; /* one --set KEY=VALUE, or NULL */
    int exit;        /* 2: refused, 0: accepted */
    int line;
    const char *key;     /* the setting the message blames */
    const char *message; /* the message's start, after "KEY: " */
};

/* The 72-node canonical dragonfly (9 groups of 8 nodes) and a short run; a job list's first
 * job is on line 4. */
#define NET                                                                                        \
    "topology = { p = 2; a = 4; h = 2; };\n"                                                       \
    "sim = { warmup_cycles = 200; measure_cycles = 500; };\n"
#define ONE(BODY) NET "jobs = (\n  { name = \"a\"; " BODY " } );\n"
/* A shipped network: its job on line 3. */
#define ON(INCLUDE, BODY)                                                                          \
    "@include \"{R}/conf/" INCLUDE "\"\njobs = (\n  { name = \"a\"; " BODY " } );\n"

static const struct job_input job_inputs[] = {
    /* ---- a negative adversarial offset read outside a topology table ---- */
    {ONE("nodes = 72; pattern = \"adversarial\"; offset = -1; load = 0.3;"), NULL, 2, 4,
     "jobs.a.offset", "-1 is out of range for pattern 'adversarial' (expected an integer >= 1"},
    {ONE("nodes = 72; pattern = \"adversarial\"; offset = -8; load = 0.3;"), NULL, 2, 4,
     "jobs.a.offset", "-8 is out of range for pattern 'adversarial'"},
    {ONE("nodes = 72; pattern = \"adversarial\"; offset = -100; load = 0.3;"), NULL, 2, 4,
     "jobs.a.offset", "-100 is out of range for pattern 'adversarial'"},
    {ONE("nodes = 72; pattern = \"adversarial\"; offset = 0; load = 0.3;"), NULL, 2, 4,
     "jobs.a.offset", "0 is out of range for pattern 'adversarial'"},
    {ONE("nodes = 72; pattern = \"adversarial\"; load = 0.3;"), "jobs.a.offset=-1", 2, 0,
     "jobs.a.offset", "-1 is out of range for pattern 'adversarial'"},
    {ON("aries_small.cfg", "nodes = 80; pattern = \"adversarial\"; offset = -1; load = 0.3;"), NULL,
     2, 3, "jobs.a.offset", "-1 is out of range for pattern 'adversarial'"},
    {ON("dragonfly_plus_small.cfg",
        "nodes = 120; pattern = \"adversarial\"; offset = -8; load = 0.3;"),
     NULL, 2, 3, "jobs.a.offset", "-8 is out of range for pattern 'adversarial'"},
    {ONE("nodes = 72; pattern = \"adversarial\"; offset = 2; load = 0.3;"), NULL, 0, 0, NULL, NULL},
    {ONE("nodes = 8; pattern = \"tornado\"; offset = -1; load = 0.3;"), NULL, 0, 0, NULL, NULL},
    {ONE("nodes = 8; pattern = \"tornado\"; offset = -16; load = 0.3;"), NULL, 2, 4,
     "jobs.a.offset", "pattern tornado: offset -16 is a multiple of the job's 8 ranks"},

    /* ---- allocation files that are not text files of node ids ---- */
    {ONE("nodes = 2; placement = \"file\"; allocation_file = \"/dev/zero\"; motif = \"pingpong\";"),
     NULL, 2, 4, "jobs.a.allocation_file",
     "/dev/zero is not a regular file (expected a text file of node ids"},
    {ONE("nodes = 2; placement = \"file\"; allocation_file = \"fifo\"; motif = \"pingpong\";"),
     NULL, 2, 4, "jobs.a.allocation_file", "{D}/fifo is not a regular file"},
    {ONE("nodes = 2; placement = \"file\"; allocation_file = \"{D}/fifo\"; motif = \"pingpong\";"),
     NULL, 2, 4, "jobs.a.allocation_file", "{D}/fifo is not a regular file"},
    {ONE("nodes = 2; placement = \"file\"; allocation_file = \"/tmp\"; motif = \"pingpong\";"),
     NULL, 2, 4, "jobs.a.allocation_file", "/tmp is a directory"},
    {ONE("nodes = 3; placement = \"file\"; allocation_file = \"alloc_nul.txt\"; "
         "motif = \"barrier\";"),
     NULL, 2, 4, "jobs.a.allocation_file",
     "{D}/alloc_nul.txt:2: NUL byte at offset 3 (expected a text file)"},
    {ONE("nodes = 3; placement = \"file\"; allocation_file = \"missing.txt\"; "
         "motif = \"barrier\";"),
     NULL, 2, 4, "jobs.a.allocation_file", "{D}/missing.txt: cannot read: No such file"},
    {ONE("nodes = 3; placement = \"file\"; motif = \"barrier\";"), NULL, 2, 4,
     "jobs.a.allocation_file", "job 'a': placement file needs allocation_file"},
    {ONE("nodes = 2; placement = \"file\"; allocation_file = \"alloc_range.txt\"; "
         "motif = \"pingpong\";"),
     NULL, 2, 4, "jobs.a.allocation_file",
     "{D}/alloc_range.txt:2: node 999 is out of range (expected 0..71)"},
    {ONE("nodes = 3; placement = \"file\"; allocation_file = \"alloc_twice.txt\"; "
         "motif = \"barrier\";"),
     NULL, 2, 4, "jobs.a.allocation_file",
     "{D}/alloc_twice.txt:4: node 1 is listed twice (first on line 2)"},
    {NET "jobs = ( { name = \"a\"; nodes = 8; placement = \"groups\"; groups = [0];\n"
         "           motif = \"barrier\"; },\n"
         "         { name = \"b\"; nodes = 8; placement = \"file\";\n"
         "           allocation_file = \"alloc_taken.txt\"; motif = \"barrier\"; } );\n",
     NULL, 2, 6, "jobs.b.allocation_file",
     "{D}/alloc_taken.txt:2: node 7 already belongs to an earlier job"},

    /* ---- periodic: interval_cycles or load, within the line rate ---- */
    {ONE("nodes = 8; pattern = \"uniform\"; process = \"periodic\"; interval_cycles = 100; "
         "message_bytes = 64; load = 0.1;"),
     NULL, 2, 4, "jobs.a.interval_cycles",
     "interval_cycles = 100 and load = 0.1 both set periodic's rate"},
    {ONE("nodes = 8; pattern = \"uniform\"; process = \"periodic\"; interval_cycles = 1; "
         "message_bytes = 64;"),
     NULL, 2, 4, "jobs.a.interval_cycles",
     "a message of 8 phits every 1 cycles offers 8 phits/cycle, more than a node can "
     "(expected interval_cycles >= 8"},
    {ONE("nodes = 8; pattern = \"uniform\"; process = \"periodic\"; interval_cycles = 7;"), NULL, 2,
     4, "jobs.a.interval_cycles", "a message of 8 phits every 7 cycles offers"},
    {ONE("nodes = 8; pattern = \"uniform\"; process = \"periodic\"; interval_cycles = 8;"), NULL, 0,
     0, NULL, NULL},
    {ONE("nodes = 8; pattern = \"uniform\"; process = \"periodic\"; load = 0.5;"), NULL, 0, 0, NULL,
     NULL},
    {ONE("nodes = 8; pattern = \"uniform\"; process = \"periodic\";"), NULL, 2, 4, "jobs.a.process",
     "process periodic: interval_cycles 0 (expected at least 1, or 0 with a "
     "positive load"},

    /* ---- messages no run can carry ---- */
    {ONE("nodes = 8; pattern = \"uniform\"; load = 0.1; message_bytes = 2147483647;"), NULL, 2, 4,
     "jobs.a.message_bytes",
     "2147483647 bytes take 134217728 cycles to leave the node at links.bandwidth_node = 1 "
     "phits/cycle, longer than the run's 700 cycles (expected at most 11200 bytes"},
    {ONE("nodes = 8; motif = \"alltoall\"; message_bytes = 2147483647;"), NULL, 2, 4,
     "jobs.a.message_bytes", "2147483647 bytes take 134217728 cycles"},
    {ONE("nodes = 8; motif = \"alltoall\"; message_bytes = 1048576;"), "sim.max_cycles=1000", 2, 4,
     "jobs.a.message_bytes", "1048576 bytes take 65536 cycles to leave the node"},
    {ONE("nodes = 8; pattern = \"uniform\"; load = 0.1; message_bytes = 11200;"), NULL, 0, 0, NULL,
     NULL},
    {ONE("nodes = 8; motif = \"pingpong\"; response_bytes = 2147483647;"), NULL, 2, 4,
     "jobs.a.response_bytes", "2147483647 bytes take 134217728 cycles"},

    /* ---- each message blames the key at fault ---- */
    {ONE("nodes = 8; motif = \"broadcast\"; root = 8;"), NULL, 2, 4, "jobs.a.root",
     "broadcast: root 8 is not a rank of the job (expected 0 .. 7)"},
    {ONE("nodes = 8; motif = \"broadcast_flat\"; root = 8;"), NULL, 2, 4, "jobs.a.root",
     "broadcast_flat: root 8 is not a rank of the job"},
    {ONE("nodes = 8; motif = \"barrier\"; iterations = 2147483647;"), NULL, 2, 4,
     "jobs.a.iterations",
     "barrier: 2147483647 iterations of 3 steps exceed the 32-bit message "
     "tags (expected at most 1431655765 iterations)"},
    {ONE("nodes = 8; motif = \"alltoall\"; iterations = 100000000;"), NULL, 2, 4,
     "jobs.a.iterations", "alltoall: 8 ranks x 100000000 iterations need"},
    {ONE("nodes = 8; placement = \"groups\"; groups = [0, 0]; motif = \"barrier\";"), NULL, 2, 4,
     "jobs.a.groups", "job 'a': group 0 is listed twice"},
    {ONE("nodes = 8; placement = \"groups\"; groups = [9]; motif = \"barrier\";"), NULL, 2, 4,
     "jobs.a.groups", "job 'a': group 9 does not exist (expected 0..8)"},
    {ONE("nodes = 8; placement = \"groups\"; groups = []; motif = \"barrier\";"), NULL, 2, 4,
     "jobs.a.groups", "job 'a': placement groups needs a non-empty list groups"},
    {ONE("nodes = 8; placement = \"groups\"; groups = [1]; per_router = 5; motif = \"barrier\";"),
     NULL, 2, 4, "jobs.a.per_router",
     "job 'a': router 4 of group 1 has 2 nodes, fewer than per_router 5"},
    {ONE("nodes = 7; placement = \"groups\"; groups = [0]; motif = \"barrier\";"), NULL, 2, 4,
     "jobs.a.nodes", "job 'a': groups [0] hold 8 nodes, not the job's 7"},
    {ONE("nodes = 8; first_node = 72; motif = \"barrier\";"), NULL, 2, 4, "jobs.a.first_node",
     "job 'a': first_node 72 is not a node (expected 0..71)"},
    {ONE("nodes = 8; first_node = 68; motif = \"barrier\";"), NULL, 2, 4, "jobs.a.first_node",
     "job 'a': needs 8 contiguous nodes from node 68 on but only 4 are free there"},
    {NET "jobs = ( { name = \"a\"; nodes = 8; first_node = 64; motif = \"barrier\"; },\n"
         "         { name = \"b\"; nodes = 8; motif = \"barrier\"; } );\n",
     NULL, 2, 4, "jobs.b.nodes",
     "job 'b': the previous contiguous job ends at the machine's last node"},
    {NET "jobs = ( { name = \"a\"; nodes = 8; first_node = 0; motif = \"barrier\"; },\n"
         "         { name = \"b\"; nodes = 8; first_node = 4; motif = \"barrier\"; } );\n",
     NULL, 2, 4, "jobs.b.first_node", "job 'b': nodes 4..11 overlap an earlier job at node 4"},
    {ONE("nodes = 8; motif = \"halo3d\"; dims = [2, 2, 2, 1];"), NULL, 2, 4, "jobs.a.dims",
     "halo3d: dims has 4 values (expected 3: the process grid)"},
    {ONE("nodes = 8; motif = \"halo3d\"; dims = [2147483647, 2147483647, 2147483647];"), NULL, 2, 4,
     "jobs.a.dims", "halo3d: dims 2147483647 x 2147483647 x 2147483647"},
    {ONE("nodes = 8; motif = \"sweep3d\"; dims = [0, 8];"), NULL, 2, 4, "jobs.a.dims",
     "0 is out of range (expected an integer >= 1)"},
    {ONE("nodes = 8; pattern = \"incast\"; targets = 8; load = 0.1;"), NULL, 2, 4, "jobs.a.targets",
     "pattern incast: targets 8 (expected 1 .. 7"},
    {ONE("nodes = 8; pattern = \"fanout\"; targets = 9; load = 0.1;"), NULL, 2, 4, "jobs.a.targets",
     "pattern fanout: targets 9"},
    {ONE("nodes = 1; pattern = \"uniform\"; load = 0.1;"), NULL, 2, 4, "jobs.a.nodes",
     "pattern uniform needs a job of at least 2 ranks"},

    /* ---- names, keys and --set ---- */
    {NET "jobs = (\n  { nodes = 8; pattern = \"uniform\"; load = 0.1; } );\n", NULL, 2, 4,
     "jobs[0]", "an element of jobs needs a name (expected e.g. name = \"app\";)"},
    {NET "jobs = (\n  { name = \"\"; nodes = 8; pattern = \"uniform\"; load = 0.1; } );\n", NULL, 2,
     4, "jobs[0].name", "an empty name names nothing"},
    {ONE("nodes = 8; pattern = \"uniform\"; load = 0.1;"), "jobs.a.name=\"\"", 2, 0, "jobs[0].name",
     "a job needs a name"},
    {ONE("nodes = 8; pattern = \"uniform\"; load = 0.1;"), "jobs.a.bogus=1", 2, 0, "jobs.a.bogus",
     "unknown setting (expected one of: name, nodes, placement"},
    {ONE("nodes = 8; pattern = \"uniform\"; load = 0.1;"), "jobs.a.lod=1", 2, 0, "jobs.a.lod",
     "unknown setting (did you mean 'jobs.a.load'?)"},
    {ONE("nodes = 8; pattern = \"uniform\"; load = 0.1;"), "jobs[0].nodes=3", 2, 0, "jobs[0].nodes",
     "jobs elements are named, not numbered (expected jobs.a.nodes)"},
    {ONE("nodes = 8; pattern = \"uniform\"; load = 0.1;"), "jobs.b.nodes=3", 2, 0, "jobs.b",
     "no jobs element is named 'b' (expected one of: a)"},
    {ONE("nodes = 8; pattern = \"uniform\"; lod = 0.1;"), NULL, 2, 4, "jobs.a.lod",
     "unknown setting (did you mean 'jobs.a.load'?)"},
    {NET "jobs = ( { name = \"a\"; nodes = 4; motif = \"barrier\"; },\n"
         "         { name = \"a\"; nodes = 4; motif = \"barrier\"; } );\n",
     NULL, 2, 3, "jobs.a.name", "two jobs have this name (expected unique names"},
    {ONE("nodes = 4; motif = \"barrier\";"), "jobs.a.name=\"a.b\"", 2, 0, "jobs.a.b.name",
     "'a.b' holds '.' (expected letters, digits"},
    {ONE("nodes = 80; motif = \"alltoall\";"), NULL, 2, 4, "jobs.a.nodes",
     "job 'a': needs 80 nodes but only 72 of the machine's 72 are free"},
    {NET "jobs = ( { name = \"a\"; nodes = 40; motif = \"barrier\"; },\n"
         "         { name = \"b\"; nodes = 40; motif = \"barrier\"; } );\n",
     NULL, 2, 4, "jobs.b.nodes", "job 'b': needs 40 nodes but only 32 of the machine's 72"},
    {ONE("nodes = 8; motif = \"halo3d\"; dims = [2, 2, 3];"), NULL, 2, 4, "jobs.a.dims",
     "halo3d: dims 2 x 2 x 3 = 12 is not the job's 8 ranks (expected a product equal to nodes)"},
    {ONE("nodes = 3; motif = \"alltoal\";"), NULL, 2, 4, "jobs.a.motif",
     "unknown value 'alltoal' (expected one of: none, pingpong, alltoall, allreduce, barrier, "
     "broadcast, broadcast_flat, halo3d, sweep3d, uniform_exchange"}, /* + later motifs */
    {ONE("nodes = 3; pattern = \"unifrm\"; load = 0.1;"), NULL, 2, 4, "jobs.a.pattern",
     "unknown value 'unifrm' (expected one of: none, uniform, permutation, tornado, incast"},
    {ONE("nodes = 4; motif = \"alltoall\"; dims = [2, 2];"), NULL, 2, 4, "jobs.a.dims",
     "this job does not read it (expected only what it reads: motif 'alltoall' reads "
     "iterations, compute_cycles, open_ended, message_bytes"},
    {ONE("nodes = 4;"), NULL, 2, 4, "jobs.a.pattern",
     "a job has either a pattern (open loop), a motif or a trace (closed loop)"},
    {ONE("nodes = 4; pattern = \"uniform\"; motif = \"barrier\";"), NULL, 2, 4, "jobs.a.pattern",
     "a job has either a pattern (open loop), a motif or a trace (closed loop)"},
    {"topology = { p = 2; a = 4; h = 2; };\nsim = { warmup_cycles = 5000;\n max_cycles = 4000; };\n"
     "jobs = ( { name = \"a\"; nodes = 4; motif = \"barrier\"; } );\n",
     NULL, 2, 3, "sim.max_cycles",
     "4000 leaves the closed-loop jobs no cycle (expected more than sim.warmup_cycles = 5000"},
    {ONE("nodes = 5; motif = \"pingpong\";"), NULL, 2, 4, "jobs.a.nodes",
     "pingpong needs an even number of ranks"},
    {ONE("nodes = 4; pattern = \"adversarial\"; load = 0.1;"), NULL, 2, 4, "jobs.a.pattern",
     "a network pattern addresses nodes: the job must hold every node"},
    {ONE("nodes = 4; pattern = \"uniform\"; load = 1.5;"), NULL, 2, 4, "jobs.a.load",
     "1.5 is more than a node can offer (expected at most links.bandwidth_node = 1"},

    /* ---- throttles ---- */
    {ONE("nodes = 4; pattern = \"uniform\"; load = 0.5; throttle = \"static\"; "
         "throttle_rate = 0.2;"),
     NULL, 2, 4, "jobs.a.throttle",
     "a throttle delays the packets of messages in the NIC, and single packets "
     "(message_bytes = 0) go straight to the injection queue (expected message_bytes > 0, or "
     "throttle = \"none\")"},
    {ONE("nodes = 4; motif = \"barrier\"; throttle = \"static\";"), NULL, 2, 4,
     "jobs.a.throttle_rate",
     "0 is not a rate cap (expected 0 < throttle_rate <= links.bandwidth_node = 1 phits/cycle)"},
    {ONE("nodes = 4; motif = \"barrier\"; throttle = \"static\"; throttle_rate = 1.5;"), NULL, 2, 4,
     "jobs.a.throttle_rate", "1.5 is not a rate cap"},
    {ONE("nodes = 4; motif = \"barrier\"; throttle = \"aimd\"; throttle_min_rate = 0;"), NULL, 2, 4,
     "jobs.a.throttle_min_rate",
     "0 is not a rate floor (expected 0 < throttle_min_rate <= links.bandwidth_node = 1 "
     "phits/cycle)"},
    {ONE("nodes = 4; motif = \"barrier\"; throttle = \"aimd\"; throttle_rate = 0.005;"), NULL, 2, 4,
     "jobs.a.throttle_rate",
     "0.005 is outside the controller's range (expected 0 for the line rate, or "
     "throttle_min_rate = 0.01 <= throttle_rate <= links.bandwidth_node = 1)"},
    {ONE("nodes = 4; motif = \"barrier\"; throttle = \"aimd\"; throttle_gain = 0;"), NULL, 2, 4,
     "jobs.a.throttle_gain",
     "0 never lets a stall into alpha, so the rate never decreases (expected 0 < throttle_gain "
     "<= 1)"},
    {ONE("nodes = 4; motif = \"barrier\"; throttle = \"slow\";"), NULL, 2, 4, "jobs.a.throttle",
     "unknown value 'slow' (expected one of: none, static, aimd)"},
    {ONE("nodes = 4; motif = \"barrier\"; throttle = \"static\"; throttle_rate = 0.5; "
         "delay_sensitivity = 2;"),
     NULL, 2, 4, "jobs.a.delay_sensitivity",
     "this job does not read it (expected only what it reads: throttle 'static' reads "
     "throttle_rate, throttle_bucket_packets)"},
    {ONE("nodes = 4; motif = \"barrier\"; throttle_rate = 0.5;"), NULL, 2, 4,
     "jobs.a.throttle_rate",
     "this job does not read it (expected only what it reads: throttle 'none' reads no other "
     "throttle key (set throttle = \"static\" or \"aimd\"))"},

    /* ---- requests, responses and per-job routing ---- */
    {ONE("nodes = 4; pattern = \"uniform\"; load = 0.1; response_bytes = 64;"), NULL, 2, 4,
     "jobs.a.response_bytes",
     "responses answer the packets of messages, which go through the NIC, and single packets "
     "(message_bytes = 0) do not (expected message_bytes > 0, or response_bytes = 0)"},
    {ONE("nodes = 4; motif = \"barrier\"; nic_window = 4;"), NULL, 2, 4, "jobs.a.nic_window",
     "this job does not read it (expected only what it reads: response_bytes = 0 reads no "
     "nic_window: the window counts request packets awaiting their response (set "
     "response_bytes > 0))"},
    {ONE("nodes = 4; motif = \"barrier\"; response_bytes = 16; selector = \"app_aware\";"), NULL, 2,
     4, "jobs.a.selector",
     "app_aware picks ugal modes, and routing.mechanism is 'min' (expected routing.mechanism = "
     "\"ugal\" or \"ugal_g\", or selector = \"none\")"},
    {ONE("nodes = 4; motif = \"barrier\"; selector = \"app_aware\";"), "routing.mechanism=ugal", 2,
     4, "jobs.a.selector",
     "app_aware estimates message times from request-to-response latencies in a bounded "
     "window (expected response_bytes > 0 and nic_window > 0)"},
    {ONE("nodes = 4; motif = \"barrier\"; selector_lambda = 2;"), NULL, 2, 4,
     "jobs.a.selector_lambda",
     "this job does not read it (expected only what it reads: selector 'none' reads no other "
     "selector key (set selector = \"app_aware\"))"},
    {ONE("nodes = 4; motif = \"barrier\"; ugal_preset = \"adaptive_3\";"), NULL, 2, 4,
     "jobs.a.ugal_preset",
     "'adaptive_3' is a mode of ugal, and routing.mechanism is 'min' (expected "
     "routing.mechanism = \"ugal\" or \"ugal_g\", or ugal_preset = \"none\")"},
    {ONE("nodes = 4; motif = \"barrier\"; ugal_preset = \"adaptive_3\";"),
     "routing.mechanism=ugal_g", 0, 0, NULL, NULL},
    /* ---- open-ended congestors ---- */
    {ONE("nodes = 4; motif = \"alltoall\"; open_ended = true;"), NULL, 2, 4, "jobs.a.open_ended",
     "every closed-loop job is open-ended, so none would end the run (expected at least one "
     "closed-loop job without open_ended"},
    {NET "jobs = (\n  { name = \"bg\"; nodes = 4; pattern = \"uniform\"; load = 0.1; },\n"
         "  { name = \"c1\"; nodes = 4; motif = \"alltoall\"; open_ended = true; },\n"
         "  { name = \"c2\"; nodes = 4; motif = \"barrier\"; open_ended = true; } );\n",
     NULL, 2, 6, "jobs.c2.open_ended", "every closed-loop job is open-ended"},
    {NET "jobs = (\n  { name = \"c1\"; nodes = 4; motif = \"alltoall\"; open_ended = true; },\n"
         "  { name = \"app\"; nodes = 4; motif = \"barrier\"; } );\n",
     "jobs.app.open_ended=true", 2, 0, "jobs.app.open_ended",
     "every closed-loop job is open-ended"},
    {NET "jobs = (\n  { name = \"c1\"; nodes = 4; motif = \"alltoall\"; open_ended = true; },\n"
         "  { name = \"app\"; nodes = 4; motif = \"barrier\"; } );\n",
     NULL, 0, 0, NULL, NULL},
    {ONE("nodes = 4; pattern = \"uniform\"; load = 0.1; open_ended = true;"), NULL, 2, 4,
     "jobs.a.open_ended",
     "this job does not read it (expected only what it reads: pattern 'uniform' reads load, "
     "process, message_bytes"},
    /* ---- congestor intensity ---- */
    {ONE("nodes = 4; motif = \"alltoall\"; intensity = 0;"), NULL, 2, 4, "jobs.a.intensity",
     "0 would never let it communicate (expected 0 < intensity <= 1: at line rate, the "
     "fraction of the time it sends)"},
    {ONE("nodes = 4; pattern = \"uniform\"; load = 0.2;"), "jobs.a.intensity=1.5", 2, 0,
     "jobs.a.intensity", "1.5 is out of range"},
    {ONE("nodes = 4; pattern = \"incast\"; load = 1; intensity = 0.3;"), NULL, 0, 0, NULL, NULL},
    {ONE("nodes = 4; motif = \"barrier\";"), "jobs.a.ugal_preset=adaptive_9", 2, 0,
     "jobs.a.ugal_preset",
     "unknown value 'adaptive_9' (expected one of: none, adaptive_0, adaptive_1, adaptive_2, "
     "adaptive_3, min_hash, nmin_hash)"},
};

static int inputs_init(void)
{
    if (!getcwd(repo_root, sizeof repo_root) || test_tmpdir_create(inputs_dir, "jobinputs"))
        return -1;
    static const struct {
        const char *name, *text;
        size_t len;
    } files[] = {
        {"alloc_taken.txt", "# the first node of group 0\n7\n", 30},
        {"alloc_range.txt", "0\n999\n", 6},
        {"alloc_twice.txt", "0\n1\n# again\n1\n", 14},
        /* "0\n1" then a NUL byte: a line reader would have ended the line there silently */
        {"alloc_nul.txt", "0\n1\0\n5\n", 7},
    };
    char path[128];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", inputs_dir, files[i].name);
        FILE *f = fopen(path, "wb");
        if (!f)
            return -1;
        size_t written = fwrite(files[i].text, 1, files[i].len, f);
        if (fclose(f) != 0 || written != files[i].len)
            return -1;
    }
    snprintf(path, sizeof path, "%s/fifo", inputs_dir);
    return mkfifo(path, 0600);
}

static int inputs_cleanup(void)
{
    return test_tmpdir_remove(inputs_dir);
}

/* text with {R} and {D} replaced. */
static void inputs_expand(const char *text, char *out, size_t len)
{
    size_t used = 0;
    for (const char *c = text; *c && used + 1 < len; c++) {
        const char *with = strncmp(c, "{R}", 3) == 0   ? repo_root
                           : strncmp(c, "{D}", 3) == 0 ? inputs_dir
                                                       : NULL;
        if (!with) {
            out[used++] = *c;
            continue;
        }
        used += (size_t)snprintf(out + used, len - used, "%s", with);
        if (used >= len)
            used = len - 1;
        c += 2;
    }
    out[used] = '\0';
}

static void test_table(void)
{
    char text[2048], path[128], expected[1024], message[768], command[1024];
    char *out = malloc(16384);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    /* TEST_JOB_INPUTS_BINARY runs the table against another build (e.g. an older one, to see
     * which rows it fails) */
    const char *binary = getenv("TEST_JOB_INPUTS_BINARY");
    if (!binary || !binary[0])
        binary = "./dfsim-san";
    for (size_t i = 0; i < sizeof job_inputs / sizeof job_inputs[0]; i++) {
        const struct job_input *row = &job_inputs[i];
        inputs_expand(row->text, text, sizeof text);
        char name[32];
        snprintf(name, sizeof name, "case%02zu.cfg", i);
        test_write_text(inputs_dir, name, text, path);
        /* the sanitized binary: a refusal must not read or leak what it should not */
        snprintf(command, sizeof command, "timeout 20 %s info %s%s%s%s", binary, path,
                 row->set ? " --set '" : "", row->set ? row->set : "", row->set ? "'" : "");
        int rc = test_run_command(command, out, 16384);
        bool ok = rc == row->exit;
        if (row->exit != 0) {
            inputs_expand(row->message, message, sizeof message);
            if (row->line > 0)
                snprintf(expected, sizeof expected, "%s:%d: %s: %s", path, row->line, row->key,
                         message);
            else
                snprintf(expected, sizeof expected, "--set %s: %s: %s", row->set, row->key,
                         message);
            /* one line, and the first one: nothing ran before the refusal */
            ok = ok && strncmp(out, expected, strlen(expected)) == 0 &&
                 strchr(out, '\n') == out + strlen(out) - 1;
        }
        CU_ASSERT(ok);
        if (!ok)
            fprintf(stderr, "\n  row %zu (%s%s%s): exit %d, expected %d%s%s\n  got: %s", i, path,
                    row->set ? " --set " : "", row->set ? row->set : "", rc, row->exit,
                    row->exit ? " and: " : "", row->exit ? expected : "", out);
    }
    free(out);
}

/* A job that reads KEY (so a range error is the only one to expect), on the 72-node net. */
static const char *inputs_job_for(const char *key)
{
    static const struct {
        const char *key, *job;
    } readers[] = {
        {"first_node", "nodes = 4; motif = \"barrier\";"},
        {"groups", "nodes = 8; placement = \"groups\"; groups = [0]; motif = \"barrier\";"},
        {"per_router", "nodes = 8; placement = \"groups\"; groups = [0]; motif = \"barrier\";"},
        {"interval_cycles", "nodes = 4; pattern = \"uniform\"; process = \"periodic\";"},
        {"on_cycles", "nodes = 4; pattern = \"uniform\"; process = \"on_off\"; load = 0.1;"},
        {"off_cycles", "nodes = 4; pattern = \"uniform\"; process = \"on_off\"; load = 0.1;"},
        {"offset", "nodes = 4; pattern = \"tornado\"; load = 0.1;"},
        {"targets", "nodes = 4; pattern = \"incast\"; load = 0.1;"},
        {"load", "nodes = 4; pattern = \"uniform\";"},
        {"message_bytes", "nodes = 4; pattern = \"uniform\"; load = 0.1;"},
        {"dims", "nodes = 8; motif = \"halo3d\";"},
        {"root", "nodes = 4; motif = \"broadcast\";"},
        {"allreduce_threshold", "nodes = 4; motif = \"allreduce\";"},
        {"throttle_rate", "nodes = 4; motif = \"barrier\"; throttle = \"aimd\";"},
        {"throttle_bucket_packets", "nodes = 4; motif = \"barrier\"; throttle = \"aimd\";"},
        {"throttle_window_cycles", "nodes = 4; motif = \"barrier\"; throttle = \"aimd\";"},
        {"throttle_gain", "nodes = 4; motif = \"barrier\"; throttle = \"aimd\";"},
        {"throttle_step", "nodes = 4; motif = \"barrier\"; throttle = \"aimd\";"},
        {"throttle_min_rate", "nodes = 4; motif = \"barrier\"; throttle = \"aimd\";"},
        {"delay_sensitivity", "nodes = 4; motif = \"barrier\"; throttle = \"aimd\";"},
        {"nic_window", "nodes = 4; motif = \"barrier\"; response_bytes = 16;"},
        {"selector_min_bytes",
         "nodes = 4; motif = \"barrier\"; response_bytes = 16; selector = \"app_aware\";"},
        {"selector_lambda",
         "nodes = 4; motif = \"barrier\"; response_bytes = 16; selector = \"app_aware\";"},
        {"selector_sigma",
         "nodes = 4; motif = \"barrier\"; response_bytes = 16; selector = \"app_aware\";"},
    };
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (strcmp(readers[i].key, key) == 0)
            return readers[i].job;
    return "nodes = 4; motif = \"barrier\";";
}

/* Loads the one-job config with jobs.a.KEY=VALUE; returns config_load's status. */
static int inputs_load_edge(const char *key, const char *value, char *err)
{
    char text[1024], path[128], set[128];
    snprintf(text, sizeof text, ONE("%s"), inputs_job_for(key));
    test_write_text(inputs_dir, "edge.cfg", text, path);
    snprintf(set, sizeof set, "jobs.a.%s=%s", key, value);
    const char *ov[] = {"routing.mechanism=ugal", set};
    static struct sim_config cfg;
    return config_load(path, ov, 2, &cfg, err);
}

/* One step past each end of every numeric job key's range is refused as out of range, naming
 * the key and the --set; the end itself never is. */
struct inputs_rows {
    const struct setting *rows[128];
    int n;
};

static int inputs_collect_row(void *ctx, const struct setting_ref *r)
{
    struct inputs_rows *all = ctx;
    if (all->n < 128)
        all->rows[all->n++] = r->row;
    return 0;
}

static void test_range_edges(void)
{
    struct inputs_rows all = {.n = 0}; /* the job's own keys and its plug-ins' */
    settings_each_in_element(settings_list_named("jobs"), -1, inputs_collect_row, &all);
    int checked = 0;
    for (int i = 0; i < all.n; i++) {
        const struct setting *row = all.rows[i];
        bool integer =
            row->type == SETTING_INT || row->type == SETTING_INT64 || row->type == SETTING_INT_LIST;
        if (!integer && row->type != SETTING_DOUBLE)
            continue;
        double unbounded =
            row->type == SETTING_INT64 ? SETTING_UNBOUNDED_INT64 : SETTING_UNBOUNDED_INT;
        for (int end = 0; end < 2; end++) {
            double edge = end ? row->max : row->min;
            if (end && integer && row->max >= unbounded)
                continue; /* no upper end but the type's */
            double past = integer ? edge + (end ? 1 : -1) : edge * (end ? 2 : 1) - (end ? 0 : 1);
            char inside[64], outside[64], err[CONFIG_ERROR_LEN], want[256];
            const char *open = row->type == SETTING_INT_LIST ? "[" : "";
            const char *close = row->type == SETTING_INT_LIST ? "]" : "";
            snprintf(inside, sizeof inside, "%s%.17g%s", open, edge, close);
            snprintf(outside, sizeof outside, "%s%.17g%s", open, past, close);
            CU_ASSERT_EQUAL(inputs_load_edge(row->name, outside, err), -1);
            snprintf(want, sizeof want, "--set jobs.a.%s=%s: jobs.a.%s: ", row->name, outside,
                     row->name);
            bool located =
                strncmp(err, want, strlen(want)) == 0 && strstr(err, "is out of range") != NULL;
            CU_ASSERT(located);
            if (!located)
                fprintf(stderr, "\n  %s = %s: %s\n", row->name, outside, err);
            if (inputs_load_edge(row->name, inside, err) != 0) {
                bool range = strstr(err, "is out of range") != NULL;
                CU_ASSERT(!range);
                if (range)
                    fprintf(stderr, "\n  %s = %s (an end): %s\n", row->name, inside, err);
            }
            checked++;
        }
    }
    printf("[%d range ends of the job keys] ", checked);
    CU_ASSERT(checked >= 30); /* every numeric key has at least its lower end */
}

int test_job_inputs_register(void)
{
    static const struct test_case cases[] = {
        {"bad job inputs: exit 2, WHERE: KEY: message (one table)", test_table},
        {"every numeric job key's range edges", test_range_edges},
    };
    return test_add_suite("job_inputs", inputs_init, inputs_cleanup, cases,
                          sizeof cases / sizeof cases[0]);
}
