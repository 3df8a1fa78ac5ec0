/* fairness_report: the human summary of `dfsim run --fairness`: how evenly the network
 * served the routers, with group 0's per-router injection and R_in / R_out marked. */
#ifndef DFSIM_FAIRNESS_REPORT_H
#define DFSIM_FAIRNESS_REPORT_H

#include <stdio.h>

struct sim_config;
struct result;

void fairness_report_print(FILE *out, const struct sim_config *cfg, const struct result *res);

#endif
