/* job_config: the settings of a job in `jobs = ( { ... }, ... )`, what each job reads of them
 * (its placement's, pattern's and process's keys, or its motif's), and the checks of a job
 * list. The running jobs are src/workload.c's. */
#ifndef DFSIM_JOB_CONFIG_H
#define DFSIM_JOB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "settings.h"

struct sim_config;
struct config_job;
struct pattern_ops;
struct rank_pattern_ops;
struct motif_ops;
struct throttle_params;

/* The job list's tables (settings_lists' "jobs"). */
extern const struct setting_table *const job_config_tables[];

/* A job's traffic, as chosen by `pattern` (open loop) or `motif` (closed loop). A network
 * pattern (adversarial, adversarial_consecutive, bit_complement) addresses nodes, so only a
 * job that holds every node, rank r on node r, may use it. */
const struct rank_pattern_ops *job_rank_pattern(const struct config_job *job);
const struct pattern_ops *job_network_pattern(const struct config_job *job);
const struct motif_ops *job_motif(const struct config_job *job);
bool job_is_closed_loop(const struct config_job *job);

/* The params of a job's network pattern (its settings table's struct) from the job's keys of
 * the same names; 0, or -1 when the pattern has a setting no job key carries. */
int job_network_params(const struct config_job *job, const struct pattern_ops *network, void *out);

/* Whether the job reads setting `key` (the keys of its choices plus those every job reads);
 * when not, why names what the job's choices read ("motif 'alltoall' reads message_bytes,
 * iterations, ..."). */
bool job_reads(const struct config_job *job, const char *key, char *why, size_t len);
/* The same for settings_list.reads. */
bool job_config_reads(const void *job, const char *key, char *why, size_t len);

enum job_selector { JOB_SELECTOR_NONE, JOB_SELECTOR_APP_AWARE };

/* The routing modes (packet.mode, a ugal_preset) of a job with selector app_aware: the
 * default one (its ugal_preset, else adaptive_1 for alltoall, else adaptive_0) and high bias. */
int job_selector_default_mode(const struct config_job *job);
#define JOB_SELECTOR_HIGH_MODE 4 /* UGAL_ADAPTIVE_3 */
/* The modes a job's packets may carry, a bitmask over packet.mode (bit 0: the network's). */
unsigned job_routing_modes(const struct config_job *job);

/* The job's settings of its injection process's own table (struct injection_periodic_settings,
 * ...), or NULL when its process has none. */
const void *job_process_settings(const struct config_job *job);

/* Packets of a message of `bytes` (at least one: a zero-byte message still travels). */
uint64_t job_message_packets(const struct sim_config *cfg, uint64_t bytes);
/* The load an open-loop job offers, phits/(node*cycle): its load, or a periodic job's message
 * every interval_cycles (the rate interval_cycles sets when given). */
double job_offered_load(const struct sim_config *cfg, const struct config_job *job);

/* The throttle of a job's nodes from its throttle keys (aimd's rate 0: the line rate). */
void job_throttle_params(const struct sim_config *cfg, const struct config_job *job,
                         struct throttle_params *out);

/* The checks that need every job and the network: names unique, the placements (jobs never
 * share a node), the motifs' parameters against the job's size. 0, or -1 with the issue. */
int job_config_check_all(const struct sim_config *cfg, struct setting_issue *issue);

#endif
