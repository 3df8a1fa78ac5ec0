#!/usr/bin/python3
"""Writes conf/sweeps/aries_bias.cfg (the Aries routing-bias study's sweep): one variant per
(motif, size, background, mode), crossed with the seeds. Variants rather than axes because a
mode is two job keys (ugal_preset, selector) and a motif several (nodes, placement, sizes), and
because barrier reads no message_bytes. Rerun after editing the lists below."""
import os

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


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "conf", "sweeps", "aries_bias.cfg")
    lines = [
        "# aries_bias: the Aries routing-bias study (results/aries_bias/README.md),",
        "# written by tools/gen_aries_bias_sweep.py: edit that and rerun it.",
        "#   nice -n 5 ./dfsim sweep conf/sweeps/aries_bias.cfg --jobs 1",
        "#   python3 plots/plot_aries_bias.py results/aries_bias -o plots/figures/aries_bias.png",
        "# Variants NAME = motif-size-background-mode; every mode of a seed runs the same",
        "# allocation beside the same background.",
        'name = "aries_bias";',
        'base = "../jobs/aries_bias.cfg";',
        "axes = { sim = { seed = [1, 2, 3]; }; };",
        "variants = (",
    ]
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
    lines.append(",\n".join(variants))
    lines.append(");")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
