/* fairness_report: text summary of the fairness figures of one run. */
#include "fairness_report.h"

#include "arbiter.h"
#include "routing.h"
#include "sim_config.h"
#include "stats.h"
#include "traffic.h"

/* One bar of '#' per router, scaled to the most served router of group 0. */
static void fairness_report_bar(FILE *out, double load, double max_load)
{
    int width = max_load > 0 ? (int)(40.0 * load / max_load + 0.5) : 0;
    for (int i = 0; i < width; i++)
        fputc('#', out);
}

void fairness_report_print(FILE *out, const struct sim_config *cfg, const struct result *res)
{
    const struct fairness *f = &res->fairness;
    fprintf(out, "fairness (%s routing, %s arbiter%s, %s traffic at offered %.3f)\n",
            routing_of(cfg)->name, arbiter_of(cfg)->name,
            cfg->router.transit_priority ? " + transit priority" : "", pattern_of(cfg)->name,
            res->offered);
    fprintf(out, "  min injected load  %.4f phits/node/cycle (%.1f%% of offered)\n",
            f->min_injected_load, f->min_injected_pct_of_offered);
    if (f->starved_routers)
        fprintf(out, "  Max/Min            infinite: %d router(s) injected nothing\n",
                f->starved_routers);
    else
        fprintf(out, "  Max/Min            %.3f\n", f->max_min);
    fprintf(out, "  CoV                %.4f\n", f->cov);
    fprintf(out, "  injected load per router of group 0 (R_in = router 0, R_out = router %d):\n",
            res->a - 1);
    double max_load = 0;
    for (int i = 0; i < res->a; i++)
        if (res->group0_injected_load[i] > max_load)
            max_load = res->group0_injected_load[i];
    for (int i = 0; i < res->a; i++) {
        const char *mark = i == 0 ? "R_in " : i == res->a - 1 ? "R_out" : "     ";
        fprintf(out, "    %5s router %3d  %.4f  ", mark, i, res->group0_injected_load[i]);
        fairness_report_bar(out, res->group0_injected_load[i], max_load);
        fputc('\n', out);
    }
}
