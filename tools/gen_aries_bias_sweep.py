#!/usr/bin/python3
"""Writes conf/sweeps/aries_bias.cfg (the Aries routing-bias study's sweep on the 80-node
twin) and conf/sweeps/aries_bias_full.cfg (the same study on conf/aries.cfg, 2,304 nodes): one
variant per (motif, size, background, mode), crossed with the seeds. Variants rather than axes
because a mode is two job keys (ugal_preset, selector) and a motif several (nodes, placement,
sizes), and because barrier reads no message_bytes. Rerun after editing the lists below."""
import os
import sys

SIZES = [256, 4096, 16384]
# (name, motif, extra app keys, reads message_bytes)
MOTIFS = [
    ("pingpong_intra", "pingpong",
     'nodes = 2; placement = "file"; allocation_file = "aries_bias_pingpong_intra.txt";', True),
    ("pingpong_inter", "pingpong",
     'nodes = 2; placement = "file"; allocation_file = "aries_bias_pingpong_inter.txt";', True),
    ("allreduce", "allreduce", "", True),
    ("alltoall", "alltoall", "", True),
    ("barrier", "barrier", "", False),
    ("broadcast", "broadcast", "", True),
    ("halo3d", "halo3d", "", True),
    ("sweep3d", "sweep3d", "", True),
]
# a light and a heavy level of each (phits/node/cycle on the background's nodes)
BACKGROUNDS = [
    ("none", "adv = { load = 0.0; }; bg = { load = 0.0; };"),
    ("uniform_0.3", "adv = { load = 0.0; }; bg = { load = 0.3; };"),
    ("uniform_0.6", "adv = { load = 0.0; }; bg = { load = 0.6; };"),
    ("group_pair_0.3", "adv = { load = 0.3; }; bg = { load = 0.0; };"),
    ("group_pair_0.6", "adv = { load = 0.6; }; bg = { load = 0.0; };"),
]
MODES = [
    ("adaptive_0", 'ugal_preset = "adaptive_0";'),
    ("adaptive_3", 'ugal_preset = "adaptive_3";'),
    # the default mode adaptive_0 for every motif (alltoall's would be adaptive_1): the
    # selector then chooses between exactly the two other modes of the study. lambda and sigma
    # (L and s of adaptive_3 over adaptive_0, for the mode not observed yet) are the medians
    # measured by this sweep's own adaptive_0 and adaptive_3 points of messages >= 4 KiB
    # between groups, without background or beside the light ones (108 pairs of points
    # for L, 36 with stalls for s; measured before the heavy backgrounds were added): with the defaults 1 an
    # unobserved high bias is never estimated faster and app_aware stays in adaptive_0
    ("app_aware", 'ugal_preset = "adaptive_0"; selector = "app_aware"; '
                  'selector_lambda = 0.96; selector_sigma = 1.36;'),
]


# ---- the full-size study (conf/jobs/aries_bias_full.cfg): one production-like background,
# every mode of the study, sizes small and large for the ping-pongs and one per collective;
# iterations chosen so that a point lasts 30,000-80,000 cycles (the background makes a cycle
# cost ~0.5 ms at 2,304 nodes) ----
FULL_MOTIFS = [
    # (name, motif, extra app keys, sizes, iterations)
    ("pingpong_intra", "pingpong",
     'nodes = 2; placement = "file"; allocation_file = "aries_bias_full_pingpong_intra.txt";',
     [256, 16384], {256: 100, 16384: 16}),
    ("pingpong_inter", "pingpong",
     'nodes = 2; placement = "file"; allocation_file = "aries_bias_full_pingpong_inter.txt";',
     [256, 16384], {256: 100, 16384: 16}),
    # recursive doubling (6 steps) rather than the ring (126 steps per iteration at 64 ranks)
    ("allreduce", "allreduce", "allreduce_threshold = 1048576;", [4096], {4096: 16}),
    ("alltoall", "alltoall", "", [1024], {1024: 4}),
    ("barrier", "barrier", "", [0], {0: 30}),
    ("broadcast", "broadcast", "", [4096], {4096: 16}),
    ("halo3d", "halo3d", "", [4096], {4096: 16}),
    ("sweep3d", "sweep3d", "", [4096], {4096: 8}),
]
FULL_MODES = [
    ("adaptive_0", 'ugal_preset = "adaptive_0";', ""),
    ("adaptive_1", 'ugal_preset = "adaptive_1";', ""),
    ("adaptive_2", 'ugal_preset = "adaptive_2";', ""),
    ("adaptive_3", 'ugal_preset = "adaptive_3";', ""),
    ("app_aware", 'ugal_preset = "adaptive_0"; selector = "app_aware"; '
                  'selector_lambda = 0.96; selector_sigma = 1.36;', ""),
    # the ablations: the default and the high-bias mode without the far-end estimate
    ("adaptive_0_nofar", 'ugal_preset = "adaptive_0";', 'routing = { ugal_far_end = "none"; };'),
    ("adaptive_3_nofar", 'ugal_preset = "adaptive_3";', 'routing = { ugal_far_end = "none"; };'),
]
# and, for the intra-group ping-pongs only, with detours through another router of the group
FULL_INTRA_MODES = [
    ("adaptive_0_intra", 'ugal_preset = "adaptive_0";', "routing = { ugal_intra_group = true; };"),
    ("adaptive_3_intra", 'ugal_preset = "adaptive_3";', "routing = { ugal_intra_group = true; };"),
]


def write_sweep(name, header, variants):
    """conf/sweeps/NAME.cfg: the header as comments, the sweep's keys, the variants."""
    here = os.path.dirname(os.path.abspath(__file__))
    lines = ["# " + line for line in header] + KEYS[name]
    lines += ["variants = (", ",\n".join(variants), ");"]
    with open(os.path.join(here, "..", "conf", "sweeps", name + ".cfg"), "w") as f:
        f.write("\n".join(lines) + "\n")


KEYS = {
    "aries_bias": ['name = "aries_bias";', 'base = "../jobs/aries_bias.cfg";',
                   "axes = { sim = { seed = [1, 2, 3]; }; };"],
    "aries_bias_full": ['name = "aries_bias_full";', 'base = "../jobs/aries_bias_full.cfg";',
                        "axes = { sim = { seed = [1]; }; };"],
}


def full_variants():
    variants = []
    for name, motif, extra, sizes, iterations in FULL_MOTIFS:
        for size in sizes:
            modes = FULL_MODES + (FULL_INTRA_MODES if name == "pingpong_intra" else [])
            for mode, mode_keys, net_keys in modes:
                app = f'motif = "{motif}"; {extra} {mode_keys} iterations = {iterations[size]};'
                if size:
                    app += f" message_bytes = {size};"
                net = f" {net_keys}" if net_keys else ""
                variants.append(f'  {{ name = "{name}-{size}B-production-{mode}";{net} '
                                f'jobs = {{ app = {{ {" ".join(app.split())} }}; }}; }}')
    return variants


def small_variants():
    variants = []
    for name, motif, extra, sized in MOTIFS:
        for size in SIZES if sized else [0]:
            for bg, bg_keys in BACKGROUNDS:
                for mode, mode_keys in MODES:
                    label = f"{name}-{size}B-{bg}-{mode}" if sized else f"{name}-0B-{bg}-{mode}"
                    app = f'motif = "{motif}"; {extra} {mode_keys}'
                    if sized:
                        app += f" message_bytes = {size};"
                    # alltoall of 16 KiB: 8 iterations of up to 50,000 cycles beside a heavy
                    # background pass the base's cap of 400,000 cycles
                    sim = (" sim = { max_cycles = 1000000; };"
                           if motif == "alltoall" and size >= 16384 else "")
                    variants.append(
                        f'  {{ name = "{label}";{sim} jobs = {{ app = {{ {" ".join(app.split())} }};'
                        f" {bg_keys} }}; }}")
    return variants


def main():
    if sys.argv[1:] == ["--full"]:
        write_sweep("aries_bias_full", [
            "aries_bias_full: the Aries routing-bias study on conf/aries.cfg (2,304 nodes) beside a",
            "production-like background (results/aries_bias/README.md, \"At full size\"),",
            "written by tools/gen_aries_bias_sweep.py --full: edit that and rerun it.",
            "  nice -n 5 ./dfsim sweep conf/sweeps/aries_bias_full.cfg --jobs 2",
            "  python3 plots/plot_aries_bias.py results/aries_bias_full --full",
            "Variants NAME = motif-size-production-mode; every mode runs the same allocation beside",
            "the same background (seed 1)."], full_variants())
        return
    write_sweep("aries_bias", [
        "aries_bias: the Aries routing-bias study (results/aries_bias/README.md),",
        "written by tools/gen_aries_bias_sweep.py: edit that and rerun it.",
        "  nice -n 5 ./dfsim sweep conf/sweeps/aries_bias.cfg --jobs 1",
        "  python3 plots/plot_aries_bias.py results/aries_bias -o plots/figures/aries_bias.png",
        "Variants NAME = motif-size-background-mode; every mode of a seed runs the same",
        "allocation beside the same background."], small_variants())


if __name__ == "__main__":
    main()
