"""check_docs: the documentation's links resolve and the README's example commands run.

    python3 tools/check_docs.py [links|commands|tutorial]...   (all when none is named)

links:    every Markdown file the repository tracks (git ls-files '*.md'): each relative link
          [text](path) or [text](path#anchor) names an existing file, and an anchor names a
          heading of that file (GitHub's slugs: lower case, punctuation dropped, spaces to -);
          [text](#anchor) a heading of the same file.
commands: every line "$ ./dfsim ..." of the README's ```text blocks runs from a scratch
          folder holding ./dfsim and conf/ (as the repository root before any run), exits 0 and prints the first line the README shows after it, numbers aside
          (they hold timings and counts of what a previous run left; the lines that follow
          hold timings, so only the first is compared).

tutorial: every line "$ ..." of conf/TUTORIAL.md's ```console blocks runs, in order, from one
          scratch folder holding ./dfsim, conf/ and plots/ (as a fresh clone), exits 0 and
          prints the first line the page shows after it (if any), numbers aside.

Exit 0 when everything holds, else 1 with one line per problem. plots/tests/test_docs.py runs
them all as part of make test.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

TUTORIAL = "conf/TUTORIAL.md"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)|!\[([^\]]*)\]\(([^)\s]+)\)")


def markdown_files():
    """The tracked Markdown files, paths relative to the repository root."""
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return [p for p in out.split("\n") if p]


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    """The anchors of a Markdown file's headings (outside code blocks), with GitHub's -1, -2
    suffixes for repeated ones."""
    seen = {}
    found = set()
    fenced = False
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            m = None if fenced else re.match(r"^#+ (.*)$", line)
            if m:
                base = slug(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else "%s-%d" % (base, n))
    return found


def links(path):
    """(line number, target) of every link of a file outside code blocks."""
    fenced = False
    with open(os.path.join(ROOT, path)) as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            line = re.sub(r"`[^`]*`", "", line)  # code spans hold no links
            for m in LINK.finditer(line):
                yield number, m.group(2) or m.group(4)


def check_links():
    problems = []
    cache = {}
    for path in markdown_files():
        for number, target in links(path):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # http:, mailto:: not checked (no network here)
            base, _, anchor = target.partition("#")
            goal = os.path.normpath(os.path.join(os.path.dirname(path), base)) if base else path
            where = "%s:%d: %s" % (path, number, target)
            if not os.path.exists(os.path.join(ROOT, goal)):
                problems.append("%s: no such file %s" % (where, goal))
                continue
            if anchor and goal.endswith(".md"):
                if goal not in cache:
                    cache[goal] = anchors(goal)
                if anchor not in cache[goal]:
                    problems.append("%s: %s has no heading #%s" % (where, goal, anchor))
    return problems


def page_commands(page, fence, prefix):
    """(command, first output line) of every line starting with `prefix` inside the page's
    ``` blocks opened with `fence` (e.g. "```text")."""
    with open(os.path.join(ROOT, page)) as f:
        lines = f.read().split("\n")
    out = []
    block = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            block = line.strip() == fence if not block else False
            continue
        if block and line.startswith(prefix):
            following = lines[i + 1] if i + 1 < len(lines) else ""
            out.append((line[2:], following))
    return out


def readme_commands():
    """(command, first output line) of every "$ ./dfsim ..." of the README's text blocks."""
    return page_commands("README.md", "```text", "$ ./dfsim ")


def tutorial_commands():
    """(command, first output line) of every "$ ..." of the tutorial's console blocks."""
    return page_commands(TUTORIAL, "```console", "$ ")


def masked(line):
    """The line with every number as #."""
    return re.sub(r"\d+(\.\d+)?", "#", line)


def check_commands():
    """Runs the README's examples as a newcomer would, from a folder holding ./dfsim and conf/
    but no results yet (a scratch folder linking to the repository's), so that a sweep really
    runs its points and nothing is left in the repository."""
    return check_page("README.md", readme_commands(), ("dfsim", "conf"))


def check_tutorial():
    """Runs the tutorial's commands in order from one scratch folder, as check_commands."""
    return check_page(TUTORIAL, tutorial_commands(), ("dfsim", "conf", "plots"))


def check_page(page, commands, links_to):
    problems = []
    if not commands:
        problems.append("%s: no '$ ...' example found" % page)
    scratch = tempfile.mkdtemp(prefix="dfsim-docs-")
    for name in links_to:
        os.symlink(os.path.join(ROOT, name), os.path.join(scratch, name))
    try:
        problems += run_commands(page, commands, scratch)
    finally:
        shutil.rmtree(scratch)
    return problems


def run_commands(page, commands, cwd):
    problems = []
    for command, first in commands:
        run = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True,
                             timeout=600)
        got = (run.stdout + run.stderr).split("\n")[0]
        if run.returncode != 0:
            problems.append("%s: `%s` exited %d: %s" % (page, command, run.returncode, got))
        elif first.startswith("$") or first.startswith("```"):
            continue  # the README shows no output for it
        elif masked(got) != masked(first):
            problems.append("%s: `%s` printed\n    %s\n  where the page shows\n    %s"
                            % (page, command, got, first))
    return problems


def main(argv):
    what = argv[1:] or ["links", "commands", "tutorial"]
    problems = []
    if "links" in what:
        problems += check_links()
    if "commands" in what:
        problems += check_commands()
    if "tutorial" in what:
        problems += check_tutorial()
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
