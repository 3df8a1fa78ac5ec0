/* sim_status: how a run stands, and how it ended (dfsim's exit codes). Any layer of the core
 * that hits a fault records it in the network's status (network.h); the cycle loop stops on it. */
#ifndef DFSIM_SIM_STATUS_H
#define DFSIM_SIM_STATUS_H

enum sim_status {
    SIM_OK = 0,
    SIM_DEADLOCK = 3,
    SIM_INVARIANT = 4,
    SIM_NOMEM = 5,
    SIM_STOPPED = 6 /* *sim->stop was set (a signal): the run is incomplete */
};

#endif
