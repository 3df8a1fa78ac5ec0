"""What the plotting scripts share: the Agg backend, the common command-line options, saving
figures deterministically and turning input errors into a message and exit status 2."""

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend choice)

from dfsim_results import ResultError  # noqa: E402

# Same input => same bytes: no dates or version strings in the files.
matplotlib.rcParams["svg.hashsalt"] = "dfsim"
matplotlib.rcParams["figure.dpi"] = 100
matplotlib.rcParams["savefig.dpi"] = 120
matplotlib.rcParams["font.size"] = 9
matplotlib.rcParams["axes.titlesize"] = 10
matplotlib.rcParams["legend.fontsize"] = 8

_PNG_META = {"Software": None}
_PDF_META = {"Creator": None, "Producer": None, "CreationDate": None}


def base_parser(description, default_out):
    p = argparse.ArgumentParser(description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="SWEEP_DIR_OR_JSON",
                   help="sweep directories (searched recursively, sweep.json used when present) "
                        "or result documents")
    p.add_argument("-o", "--output", default=default_out, metavar="OUT.png",
                   help="output image (default %(default)s)")
    p.add_argument("--pdf", action="store_true", help="also write OUT.pdf")
    p.add_argument("--title", help="figure title (default: made from the data)")
    return p


def add_filters(p, pattern=True, variant=True, setting=True, load=False):
    if pattern:
        p.add_argument("--pattern", help="traffic pattern to show: UN, ADV+1, ADVc, BC, PERM "
                                         "(or the config name); default: all")
    if variant:
        p.add_argument("--variant", action="append", metavar="NAME",
                       help="variant to show (repeatable; sweep variant or routing label such "
                            "as PB-RRG); default: all")
    if setting:
        p.add_argument("--setting", action="append", metavar="ARB",
                       help="arbitration setting to show: RR+TP, RR, Age (repeatable); "
                            "default: all")
    if load:
        p.add_argument("--load", type=float, help="offered load (traffic.load) to show")


def save_figure(fig, out, pdf=False):
    """Write OUT (PNG) and with pdf=True OUT with a .pdf suffix; returns the paths written."""
    directory = os.path.dirname(out)
    if directory:
        os.makedirs(directory, exist_ok=True)
    written = [out]
    fig.savefig(out, metadata=_PNG_META if out.endswith(".png") else None)
    if pdf:
        pdf_path = os.path.splitext(out)[0] + ".pdf"
        fig.savefig(pdf_path, metadata=_PDF_META)
        written.append(pdf_path)
    plt.close(fig)
    return written


def run_main(main, argv=None):
    """Call main(argv); input errors become a one-line message and exit status 2."""
    try:
        written = main(argv)
    except ResultError as e:
        print("%s: %s" % (os.path.basename(sys.argv[0]), e), file=sys.stderr)
        return 2
    for path in written or []:
        print(path)
    return 0


def fmt_load(x):
    return ("%.3f" % x).rstrip("0").rstrip(".") if x is not None else "-"
