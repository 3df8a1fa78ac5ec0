#!/usr/bin/python3
"""OTF2 traces of known content for the trace-replay tests (tests/test_trace.c), written
with Debian's python3-otf2.

    trace_fixtures.py pingpong DIR BYTES [END]  two ranks: send, receive back (compute 50, 20,
                                             30); END: when rank 1 leaves MPI_Finalize (90)
    trace_fixtures.py unmatched DIR          rank 1 receives a message rank 0 never sends
    trace_fixtures.py unknown_collective DIR a collective of an operation MPI does not have
    trace_fixtures.py exchange DIR BYTES     two ranks: both MPI_Send to the other, then MPI_Recv
                                             (a deadlock once BYTES go by rendezvous)
    trace_fixtures.py collectives DIR        four ranks: non-blocking exchange, collectives on
                                             MPI_COMM_WORLD and on two halves (Comm_split)

Timestamps are nanoseconds (timer resolution 1e9): with a cycle of 1 ns, ticks are cycles.
"""
import sys

import otf2
from otf2.enums import CollectiveOp, GroupType, Paradigm

UNDEFINED_ROOT = 0xFFFFFFFF


class Trace:
    """An archive of n ranks with MPI_COMM_WORLD and, optionally, split communicators."""

    def __init__(self, directory, nranks):
        self.writer = otf2.writer.open(directory, timer_resolution=1000000000)
        self.trace = self.writer.__enter__()
        d = self.trace.definitions
        node = d.system_tree_node("machine")
        self.locations = []
        for r in range(nranks):
            group = d.location_group("MPI Rank %d" % r, system_tree_parent=node)
            self.locations.append(d.location("Master thread", group=group))
        d.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                members=self.locations)
        world = d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                        members=list(range(nranks)))
        self.world = d.comm("MPI_COMM_WORLD", group=world)
        self.regions = {}
        self.events = [self.trace.event_writer_from_location(l) for l in self.locations]

    def comm(self, ranks):
        d = self.trace.definitions
        group = d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                        members=list(ranks))
        return d.comm("", group=group, parent=self.world)

    def region(self, name):
        if name not in self.regions:
            self.regions[name] = self.trace.definitions.region(name)
        return self.regions[name]

    def call(self, rank, name, begin, end, *records):
        """An MPI call from begin to end, its records (functions of the event writer and
        their arguments, time first) inside."""
        w = self.events[rank]
        w.enter(begin, self.region(name))
        for record, *args in records:
            getattr(w, record)(*args)
        w.leave(end, self.region(name))

    def close(self):
        self.writer.__exit__(None, None, None)


def pingpong(directory, nbytes, end=90):
    t = Trace(directory, 2)
    w = t.world
    t.call(0, "MPI_Init", 0, 0)
    t.call(0, "MPI_Send", 50, 60, ("mpi_send", 50, 1, w, 7, nbytes))
    t.call(0, "MPI_Recv", 60, 80, ("mpi_recv", 70, 1, w, 8, nbytes))
    t.call(0, "MPI_Finalize", 80, 90)
    t.call(1, "MPI_Init", 0, 0)
    t.call(1, "MPI_Recv", 20, 30, ("mpi_recv", 25, 0, w, 7, nbytes))
    t.call(1, "MPI_Send", 60, 65, ("mpi_send", 60, 0, w, 8, nbytes))
    t.call(1, "MPI_Finalize", 65, end)
    t.close()


def unmatched(directory):
    t = Trace(directory, 2)
    w = t.world
    for r in range(2):
        t.call(r, "MPI_Init", 0, 0)
    t.call(0, "MPI_Send", 10, 20, ("mpi_send", 10, 1, w, 1, 64))
    t.call(1, "MPI_Recv", 10, 30, ("mpi_recv", 25, 0, w, 1, 64))
    t.call(1, "MPI_Recv", 30, 40, ("mpi_recv", 35, 0, w, 9, 64))  # never sent
    t.close()


def exchange(directory, nbytes):
    t = Trace(directory, 2)
    for r in range(2):
        t.call(r, "MPI_Init", 0, 0)
        t.call(r, "MPI_Send", 10, 20, ("mpi_send", 10, 1 - r, t.world, 3, nbytes))
        t.call(r, "MPI_Recv", 20, 30, ("mpi_recv", 25, 1 - r, t.world, 3, nbytes))
    t.close()


def unknown_collective(directory):
    t = Trace(directory, 2)
    for r in range(2):
        t.call(r, "MPI_Init", 0, 0)
        t.call(r, "MPI_Barrier", 10, 20, ("mpi_collective_begin", 10),
               ("mpi_collective_end", 20, CollectiveOp.BARRIER, t.world, UNDEFINED_ROOT, 0, 0))
        t.call(r, "MPI_Win_allocate", 30, 40, ("mpi_collective_begin", 30),
               ("mpi_collective_end", 40, CollectiveOp.CREATE_HANDLE, t.world, UNDEFINED_ROOT,
                0, 0))
    t.close()


def collectives(directory):
    """Four ranks. Each: Isend 100 bytes to r+1 and 200 to r+2, Irecv both, Waitall; then on
    MPI_COMM_WORLD an Alltoall of 1000 bytes per pair, a Bcast of 300 bytes from rank 2, an
    Allreduce of 64 bytes (recursive doubling) and of 4000 bytes (ring), a Barrier; on the halves
    {0, 2} and {1, 3} a Gather of 50 bytes to their rank 1. Score-P's byte counts: the total a
    rank sends and receives (a root's broadcast vector once per rank)."""
    n = 4
    t = Trace(directory, n)
    w = t.world
    halves = [t.comm([0, 2]), t.comm([1, 3])]
    for r in range(n):
        c = 100
        t.call(r, "MPI_Init", 0, 0)
        t.call(r, "MPI_Isend", c, c + 1, ("mpi_isend", c, (r + 1) % n, w, 1, 100, 1))
        t.call(r, "MPI_Isend", c + 1, c + 2, ("mpi_isend", c + 1, (r + 2) % n, w, 2, 200, 2))
        t.call(r, "MPI_Irecv", c + 2, c + 3, ("mpi_irecv_request", c + 2, 3))
        t.call(r, "MPI_Irecv", c + 3, c + 4, ("mpi_irecv_request", c + 3, 4))
        t.call(r, "MPI_Waitall", c + 4, c + 9, ("mpi_isend_complete", c + 5, 1),
               ("mpi_isend_complete", c + 6, 2),
               ("mpi_irecv", c + 7, (r - 1) % n, w, 1, 100, 3),
               ("mpi_irecv", c + 8, (r - 2) % n, w, 2, 200, 4))
        c = 200

        def coll(name, op, comm, root, sent, received):
            nonlocal c
            t.call(r, name, c, c + 10, ("mpi_collective_begin", c),
                   ("mpi_collective_end", c + 9, op, comm, root, sent, received))
            c += 20
        coll("MPI_Alltoall", CollectiveOp.ALLTOALL, w, UNDEFINED_ROOT, 4000, 4000)
        coll("MPI_Bcast", CollectiveOp.BCAST, w, 2, 1200 if r == 2 else 0, 0 if r == 2 else 300)
        coll("MPI_Allreduce", CollectiveOp.ALLREDUCE, w, UNDEFINED_ROOT, 256, 256)
        coll("MPI_Allreduce", CollectiveOp.ALLREDUCE, w, UNDEFINED_ROOT, 16000, 16000)
        coll("MPI_Barrier", CollectiveOp.BARRIER, w, UNDEFINED_ROOT, 0, 0)
        coll("MPI_Gather", CollectiveOp.GATHER, halves[r % 2], 1, 50, 100 if r >= 2 else 0)
        t.call(r, "MPI_Finalize", c, c + 10)
    t.close()


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    kind, directory = argv[1], argv[2]
    if kind == "pingpong":
        pingpong(directory, int(argv[3]), int(argv[4]) if len(argv) > 4 else 90)
    elif kind == "exchange":
        exchange(directory, int(argv[3]))
    elif kind == "unmatched":
        unmatched(directory)
    elif kind == "unknown_collective":
        unknown_collective(directory)
    elif kind == "collectives":
        collectives(directory)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
