/* workload: running the jobs in the simulator (see workload.h). Layer: acts on the network
 * (network.h) and on the workload's own state. */
#include "workload.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_config.h"
#include "network.h"
#include "trace_job.h"
#include "trace_writer.h"

/* ---- messages ---- */

static uint32_t workload_message_new(struct workload *w)
{
    if (w->free_message) {
        uint32_t index = w->free_message - 1;
        w->free_message = w->messages[index].next;
        return index;
    }
    if (w->n_messages == w->capacity) {
        uint32_t capacity = w->capacity ? w->capacity * 2 : 1024;
        struct workload_message *m = realloc(w->messages, (size_t)capacity * sizeof *m);
        if (!m)
            return UINT32_MAX;
        w->messages = m;
        w->capacity = capacity;
    }
    return w->n_messages++;
}

static void workload_message_free(struct workload *w, uint32_t index)
{
    w->messages[index].packets = 0; /* marks it free for the invariant check */
    w->messages[index].next = w->free_message;
    w->free_message = index + 1;
}

/* Appends message `index` to a queue of node's NIC, which becomes active. */
static void workload_nic_append(struct workload *w, uint32_t node, uint32_t *head, uint32_t *tail,
                                uint32_t index)
{
    if (*tail)
        w->messages[*tail - 1].next = index + 1;
    else
        *head = index + 1;
    *tail = index + 1;
    struct workload_nic *nic = &w->nic[node];
    if (!nic->active) {
        nic->active = true;
        w->active_nics[w->n_active_nics++] = (int32_t)node;
    }
}

/* The app_aware choice for a message of `bytes` bytes in `packets` packets from `node`: small
 * messages go with high bias; a larger one estimates its time in each mode as
 * T = ((p + W/2) / W) L + f (s + 1) from the node's counters (a mode not observed yet from the
 * other with selector_lambda and selector_sigma) and moves to the other mode only if strictly
 * faster there. Returns WORKLOAD_MODE_*. */
static int workload_select(const struct workload *w, const struct network *net,
                           const struct workload_job *jb, uint32_t node, uint64_t bytes,
                           uint64_t packets)
{
    struct workload_selector *sel = &w->selector[node];
    const struct config_job *c = jb->cfg;
    if (bytes < (uint64_t)c->selector_min_bytes)
        return WORKLOAD_MODE_HIGH;
    double L[2], s[2];
    bool seen[2];
    for (int m = 0; m < 2; m++) {
        seen[m] = sel->responses[m] > 0;
        L[m] = seen[m] ? (double)sel->latency[m] / (double)sel->responses[m] : 0;
        s[m] = sel->flits[m] ? (double)sel->stalls[m] / (double)sel->flits[m] : 0;
    }
    if (!seen[0] && !seen[1])
        return sel->current;
    if (!seen[WORKLOAD_MODE_HIGH]) {
        L[WORKLOAD_MODE_HIGH] = c->selector_lambda * L[WORKLOAD_MODE_DEFAULT];
        s[WORKLOAD_MODE_HIGH] = c->selector_sigma * s[WORKLOAD_MODE_DEFAULT];
    } else if (!seen[WORKLOAD_MODE_DEFAULT]) {
        L[WORKLOAD_MODE_DEFAULT] = L[WORKLOAD_MODE_HIGH] / c->selector_lambda;
        s[WORKLOAD_MODE_DEFAULT] = s[WORKLOAD_MODE_HIGH] / c->selector_sigma;
    }
    double W = (double)jb->window, p = (double)packets;
    double f = p * (double)net->packet_size, T[2];
    for (int m = 0; m < 2; m++)
        T[m] = (p + W / 2) / W * L[m] + f * (s[m] + 1);
    int other = 1 - sel->current;
    if (T[other] < T[sel->current])
        sel->current = other;
    return sel->current;
}

/* Queues a message of `packets` packets (`bytes` bytes) in the NIC of the source rank's node. */
static int workload_send(struct workload *w, struct network *net, int job, int32_t src, int32_t dst,
                         uint64_t packets, uint64_t bytes, uint32_t tag)
{
    struct workload_job *jb = &w->jobs[job];
    uint32_t index = workload_message_new(w);
    if (index == UINT32_MAX) {
        net->status = SIM_NOMEM;
        return -1;
    }
    struct workload_message *m = &w->messages[index];
    *m = (struct workload_message){
        .job = (uint32_t)job,
        .src_rank = src,
        .dst_rank = dst,
        .src_node = (uint32_t)jb->rank_node[src],
        .dst_node = (uint32_t)jb->rank_node[dst],
        .tag = tag,
        .packets = (uint32_t)packets,
        .created = net->cycle,
        .mode = (uint8_t)jb->cfg->ugal_preset,
    };
    if (jb->app_aware) {
        int chosen = workload_select(w, net, jb, m->src_node, bytes, packets);
        m->selected = (uint8_t)chosen;
        m->mode = jb->modes[chosen];
        jb->mode_packets[chosen] += net->measuring ? packets : 0;
    }
    if (net->measuring) {
        jb->stats.messages_created++;
        jb->stats.offered_phits += packets * (uint64_t)net->packet_size;
    }
    if (jb->recorder && trace_writer_send(jb->recorder, src, dst, bytes, net->cycle) != 0)
        net->status = SIM_NOMEM;
    m->bytes = bytes;
    struct workload_nic *nic = &w->nic[m->src_node];
    workload_nic_append(w, m->src_node, &nic->head, &nic->tail, index);
    return 0;
}

/* A request packet of message `request` arrived: its response, in the responder's NIC. */
static int workload_respond(struct workload *w, struct network *net, uint32_t request,
                            uint64_t request_cycle)
{
    uint32_t index = workload_message_new(w);
    if (index == UINT32_MAX) {
        net->status = SIM_NOMEM;
        return -1;
    }
    const struct workload_message *r = &w->messages[request];
    struct workload_message *m = &w->messages[index];
    *m = (struct workload_message){
        .job = r->job,
        .src_rank = r->dst_rank,
        .dst_rank = r->src_rank,
        .src_node = r->dst_node,
        .dst_node = r->src_node,
        .tag = r->tag,
        .packets = w->jobs[r->job].response_packets,
        .created = net->cycle,
        .request = request + 1,
        .request_cycle = request_cycle,
        .mode = r->mode,
        .selected = r->selected,
    };
    if (net->measuring) /* responses are traffic the job creates: offered, as its requests */
        w->jobs[r->job].stats.offered_phits += (uint64_t)m->packets * (uint64_t)net->packet_size;
    struct workload_nic *nic = &w->nic[m->src_node];
    workload_nic_append(w, m->src_node, &nic->response_head, &nic->response_tail, index);
    return 0;
}

struct workload_motif_send {
    struct workload *w;
    struct network *net;
    int job;
};

static void workload_motif_send(void *ctx, int32_t src, int32_t dst, uint64_t bytes, uint32_t tag)
{
    struct workload_motif_send *s = ctx;
    workload_send(s->w, s->net, s->job, src, dst, job_message_packets(s->net->cfg, bytes), bytes,
                  tag);
}

/* A motif's compute phase, for its recording: the time between its MPI calls. */
static int workload_record_compute(void *ctx, int32_t rank, uint64_t from, uint64_t to)
{
    return trace_writer_compute(ctx, rank, from, to);
}

/* ---- the engine of a closed-loop job: its motif run or its trace replay ---- */

static void closed_start(struct workload_job *jb, uint64_t now)
{
    if (jb->trace)
        trace_replay_start(jb->trace, now);
    else
        motif_run_start(jb->motif, now);
}

static uint64_t closed_next_wake(const struct workload_job *jb)
{
    return jb->trace ? trace_replay_next_wake(jb->trace) : motif_run_next_wake(jb->motif);
}

static void closed_sent(struct workload_job *jb, int32_t src, uint32_t tag, uint64_t now)
{
    if (jb->trace)
        trace_replay_sent(jb->trace, src, tag, now);
    else
        motif_run_sent(jb->motif, src, tag, now);
}

static void closed_delivered(struct workload_job *jb, int32_t src, int32_t dst, uint32_t tag,
                             uint64_t now)
{
    if (jb->trace)
        trace_replay_delivered(jb->trace, src, dst, tag, now);
    else
        motif_run_delivered(jb->motif, src, dst, tag, now);
}

static bool closed_done(const struct workload_job *jb)
{
    return jb->trace ? trace_replay_done(jb->trace) : motif_run_done(jb->motif);
}

/* ---- creating the jobs ---- */

static int workload_network_pattern(const struct network *net, struct workload_job *jb, char *why,
                                    size_t len)
{
    const struct pattern_ops *p = jb->network_pattern;
    size_t size = p->settings ? p->settings->params_size : 0;
    jb->network_params = calloc(1, size ? size : 1);
    if (!jb->network_params || (size && job_network_params(jb->cfg, p, jb->network_params))) {
        snprintf(why, len, "cannot set up pattern %s", p->name);
        return -1;
    }
    jb->network_run =
        (struct pattern_run){.topo = &net->topo, .cfg = net->cfg, .params = jb->network_params};
    if (!p->init)
        return 0;
    int rc = p->init(&jb->network_run);
    if (rc)
        snprintf(why, len, "cannot set up pattern %s (out of memory)", p->name);
    return rc;
}

static void workload_network_free(struct workload_job *jb)
{
    if (jb->network_pattern && jb->network_pattern->destroy)
        jb->network_pattern->destroy(&jb->network_run);
    free(jb->network_params);
    jb->network_params = NULL;
}

/* Each sending rank's first message, drawn in rank order from the job's stream. */
static int workload_open_loop_calendar(struct workload_job *jb)
{
    if (injection_calendar_init(&jb->calendar, jb->nranks) != 0)
        return -1;
    for (int32_t r = 0; r < jb->nranks; r++)
        if (!jb->has_rank_pattern || rank_pattern_sends(&jb->pattern, r))
            injection_calendar_add(&jb->calendar, r,
                                   injection_process_next(&jb->process, r, 0, &jb->rng));
    return 0;
}

static int workload_open_loop(struct workload *w, struct network *net, struct workload_job *jb,
                              int j, char *err, int err_len)
{
    const struct config_job *job = jb->cfg;
    char why[512] = "";
    jb->network_pattern = job_network_pattern(job);
    if (jb->network_pattern && workload_network_pattern(net, jb, why, sizeof why) != 0)
        goto fail;
    if (!jb->network_pattern) {
        struct rank_pattern_params params;
        job_pattern_params(job, &params);
        if (rank_pattern_init(&jb->pattern, job_rank_pattern(job), &params, jb->nranks,
                              jb->rank_node, &w->plan.machine, &jb->rng, why, sizeof why) != 0)
            goto fail;
        jb->has_rank_pattern = true;
    }
    struct injection_params params;
    job_injection_params(net->cfg, job, &params);
    if (injection_process_init(&jb->process, injection_registry[job->process], &params, jb->nranks,
                               &jb->rng, why, sizeof why) != 0)
        goto fail;
    jb->has_process = true;
    if (jb->active && workload_open_loop_calendar(jb) != 0) {
        snprintf(why, sizeof why, "out of memory");
        goto fail;
    }
    jb->message_packets =
        job->message_bytes > 0 ? job_message_packets(net->cfg, (uint64_t)job->message_bytes) : 0;
    return 0;
fail:
    snprintf(err, (size_t)err_len, "job '%s' (%d): %s", job->name, j, why);
    return -1;
}

static int workload_closed_loop(const struct network *net, struct workload_job *jb, int j,
                                char *err, int err_len)
{
    const struct config_job *job = jb->cfg;
    struct motif_params params;
    struct rng seed;
    char why[512] = "";
    job_motif_params(job, &params);
    job_rng(net->cfg, j, JOB_STREAM_MOTIF, &seed);
    jb->motif = motif_run_create(job_motif(job), &params, jb->nranks, rng_next(&seed), why,
                                 sizeof why, NULL);
    jb->motif_seeds = seed; /* an open-ended job's later rounds draw theirs from it */
    jb->open_ended = job->open_ended;
    if (!jb->motif) {
        snprintf(err, (size_t)err_len, "job '%s': %s", job->name, why);
        return -1;
    }
    jb->closed = true;
    return 0;
}

/* A trace job: its program (the one the config check read) and replay engine. */
static int workload_trace(const struct network *net, struct workload_job *jb, char *err,
                          int err_len)
{
    char why[900] = "";
    struct trace_replay_params params;
    trace_job_params(net->cfg, jb->cfg, &params);
    jb->trace_program = trace_job_program(net->cfg, jb->cfg, why, sizeof why);
    if (!jb->trace_program ||
        !(jb->trace = trace_replay_create(jb->trace_program, &params, why, sizeof why))) {
        snprintf(err, (size_t)err_len, "job '%s': %s", jb->cfg->name,
                 why[0] ? why : "out of memory");
        return -1;
    }
    jb->closed = true;
    return 0;
}

/* A throttled job's nodes get their token buckets (the array is made for the first one). */
static int workload_throttle_job(struct workload *w, struct network *net, struct workload_job *jb)
{
    job_throttle_params(net->cfg, jb->cfg, &jb->throttle);
    if (jb->throttle.kind == THROTTLE_NONE)
        return 0;
    if (!w->throttle)
        w->throttle = calloc((size_t)net->topo.nodes, sizeof *w->throttle);
    if (!w->throttle)
        return -1;
    for (int r = 0; r < jb->nranks; r++)
        throttle_node_init(&w->throttle[jb->rank_node[r]], &jb->throttle);
    return 0;
}

static int workload_jobs(struct workload *w, struct network *net, int isolate, char *err,
                         int err_len)
{
    const struct sim_config *cfg = net->cfg;
    w->n_jobs = cfg->n_jobs;
    for (int j = 0; j < w->n_jobs; j++) {
        struct workload_job *jb = &w->jobs[j];
        jb->cfg = &cfg->jobs[j];
        jb->nranks = jb->cfg->nodes;
        jb->rank_node = w->plan.rank_node[j];
        jb->active = isolate < 0 || isolate == j;
        job_rng(cfg, j, JOB_STREAM_TRAFFIC, &jb->rng);
        for (int r = 0; r < jb->nranks; r++) {
            w->node_job[jb->rank_node[r]] = j;
            w->node_rank[jb->rank_node[r]] = r;
        }
        int rc = trace_job_is(jb->cfg)        ? workload_trace(net, jb, err, err_len)
                 : job_is_closed_loop(jb->cfg) ? workload_closed_loop(net, jb, j, err, err_len)
                                               : workload_open_loop(w, net, jb, j, err, err_len);
        if (rc)
            return -1;
        /* Alone, an open-ended job runs one round, as a job without open_ended: the
         * yardstick of its rounds beside the others (job_result_set_alone). */
        if (isolate >= 0)
            jb->open_ended = false;
        if (jb->closed && jb->active) {
            w->has_closed = true;
            w->running_closed += !jb->open_ended;
        }
        if (jb->cfg->response_bytes > 0) {
            jb->response_packets =
                (uint32_t)job_message_packets(cfg, (uint64_t)jb->cfg->response_bytes);
            jb->window = (uint32_t)jb->cfg->nic_window;
        }
        if (jb->cfg->selector == JOB_SELECTOR_APP_AWARE) {
            jb->app_aware = true;
            jb->modes[WORKLOAD_MODE_DEFAULT] = (uint8_t)job_selector_default_mode(jb->cfg);
            jb->modes[WORKLOAD_MODE_HIGH] = JOB_SELECTOR_HIGH_MODE;
            if (!w->selector)
                w->selector = calloc((size_t)net->topo.nodes, sizeof *w->selector);
            if (!w->selector) {
                snprintf(err, (size_t)err_len, "out of memory");
                return -1;
            }
        }
        if (workload_throttle_job(w, net, jb) != 0) {
            snprintf(err, (size_t)err_len, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* The parts of a workload that hold no job yet (the jobs come next). */
static int workload_init(struct workload *w, struct network *net, char *err, int err_len)
{
    const struct topology *t = &net->topo;
    struct setting_issue issue = {0};
    if (job_plan_create(&w->plan, net->cfg, t, &issue) != 0) {
        snprintf(err, (size_t)err_len, "%s: %s", issue.key, issue.text);
        return -1;
    }
    w->node_job = malloc((size_t)t->nodes * sizeof *w->node_job);
    w->node_rank = malloc((size_t)t->nodes * sizeof *w->node_rank);
    w->nic = calloc((size_t)t->nodes, sizeof *w->nic);
    w->active_nics = malloc((size_t)t->nodes * sizeof *w->active_nics);
    w->stall = calloc((size_t)t->nodes, sizeof *w->stall);
    w->queued_mask = calloc(((size_t)t->nodes + 63) / 64, sizeof *w->queued_mask);
    w->node_port = malloc((size_t)t->nodes * sizeof *w->node_port);
    w->node_vc = malloc((size_t)t->nodes * sizeof *w->node_vc);
    if (!w->node_job || !w->node_rank || !w->nic || !w->active_nics || !w->stall ||
        !w->queued_mask || !w->node_port || !w->node_vc ||
        packet_pool_use_tags(&net->pool) != 0) {
        snprintf(err, (size_t)err_len, "out of memory");
        return -1;
    }
    for (int n = 0; n < t->nodes; n++) {
        w->node_job[n] = w->node_rank[n] = -1;
        int router = topology_router_of_node(t, n), port = topology_node_port(t, n);
        w->node_port[n] = topology_port_base(t, router) + (uint32_t)port;
        w->node_vc[n] = (uint32_t)network_vc_index(net, router, port, 0);
    }
    w->node_rate = net->link_rate[PORT_NODE];
    return 0;
}

struct workload *workload_create(struct network *net, int isolate, char *err, int err_len)
{
    struct workload *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, (size_t)err_len, "out of memory");
        return NULL;
    }
    if (workload_init(w, net, err, err_len) != 0 ||
        workload_jobs(w, net, isolate, err, err_len) != 0) {
        workload_destroy(w);
        return NULL;
    }
    return w;
}

void workload_destroy(struct workload *w)
{
    if (!w)
        return;
    for (int j = 0; j < w->n_jobs; j++) {
        struct workload_job *jb = &w->jobs[j];
        workload_network_free(jb);
        if (jb->has_rank_pattern)
            rank_pattern_destroy(&jb->pattern);
        if (jb->has_process)
            injection_process_destroy(&jb->process);
        injection_calendar_free(&jb->calendar);
        motif_run_destroy(jb->motif);
        trace_replay_destroy(jb->trace);
        trace_writer_destroy(jb->recorder);
        latency_histogram_free(&jb->stats.packet_latency);
        latency_histogram_free(&jb->stats.message_latency);
    }
    job_plan_free(&w->plan);
    free(w->node_job);
    free(w->node_rank);
    free(w->nic);
    free(w->active_nics);
    free(w->stall);
    free(w->queued_mask);
    free(w->node_port);
    free(w->node_vc);
    free(w->throttle);
    free(w->selector);
    free(w->messages);
    free(w);
}

int workload_record(struct workload *w, const struct network *net)
{
    w->record_cycle_ns = net->cfg->sim.cycle_ns;
    for (int j = 0; j < w->n_jobs; j++) {
        struct workload_job *jb = &w->jobs[j];
        jb->recorder = trace_writer_create(jb->nranks, w->record_cycle_ns,
                                           (uint64_t)net->cfg->sim.warmup_cycles);
        if (!jb->recorder)
            return -1;
        if (jb->motif)
            motif_run_observe_compute(jb->motif, workload_record_compute, jb->recorder);
    }
    return 0;
}

int workload_write_traces(const struct workload *w, const char *dir, uint64_t end, char *err,
                          size_t err_len)
{
    for (int j = 0; j < w->n_jobs; j++) {
        const struct workload_job *jb = &w->jobs[j];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, jb->cfg->name);
        if (jb->recorder && trace_writer_write(jb->recorder, path, end, err, err_len) != 0)
            return -1;
    }
    return 0;
}

/* ---- every cycle ---- */

/* ---- the stall signal ----
 * A node's cycle is *ready* when it has a packet that could go: in its NIC with its link free
 * (whether its throttle lets it go or not), or at the head of one of its injection queues with
 * all its phits in and the router's pipeline done (taken this cycle or not). It is *stalled*
 * when such a packet cannot go for back-pressure: the NIC's packet because its injection queue
 * is full, the queue's head because the router has no credit or crossbar grant for it. Both
 * parts are counted (nic_stall_cycles, injection_stall_cycles) and each node-cycle once in
 * ready_cycles and stall_cycles, the stall fraction and AIMD's x: the injection-queue part
 * sees back-pressure whatever the queue's depth, where a deep queue hid it from the NIC. */

/* A packet of node's is in an injection queue. */
static void workload_queued(struct workload *w, int32_t node)
{
    struct workload_stall *s = &w->stall[node];
    s->queued++;
    w->queued_mask[node >> 6] |= 1ull << (node & 63);
}

static void workload_count_ready(struct workload *w, const struct network *net, int32_t node,
                                 struct throttle_node *th)
{
    struct workload_stall *s = &w->stall[node];
    if (s->ready == net->cycle + 1)
        return;
    s->ready = net->cycle + 1;
    w->jobs[w->node_job[node]].stats.ready_cycles += net->measuring;
    if (th)
        throttle_node_ready(th);
}

/* A stalled cycle of node's (ready too); m: the stalled packet's message, if any (a request's
 * stall counts for the NIC's s, and for the app_aware selector in its mode). */
static void workload_count_stalled(struct workload *w, const struct network *net, int32_t node,
                                   struct throttle_node *th, const struct workload_message *m)
{
    struct workload_stall *s = &w->stall[node];
    struct workload_job *jb = &w->jobs[w->node_job[node]];
    uint64_t mark = net->cycle + 1;
    workload_count_ready(w, net, node, th);
    if (s->stalled != mark) {
        s->stalled = mark;
        jb->stats.stall_cycles += net->measuring;
        if (th)
            throttle_node_stalled(th);
    }
    if (!m || !jb->response_packets || m->request)
        return;
    if (s->request != mark) {
        s->request = mark;
        jb->stats.request_stall_cycles += net->measuring;
    }
    if (jb->app_aware && s->mode[m->selected] != mark) {
        s->mode[m->selected] = mark;
        w->selector[node].stalls[m->selected]++;
    }
}

/* Rank r of an open-loop job creates a message: into the NIC, or a single packet straight
 * into the injection queue (refused when it is full, as the network-wide traffic). */
static void workload_open_loop_fire(struct workload *w, struct network *net, int j, int32_t r)
{
    struct workload_job *jb = &w->jobs[j];
    int32_t dst;
    if (jb->network_pattern)
        dst = (int32_t)jb->network_pattern->destination(&jb->network_run,
                                                        (uint32_t)jb->rank_node[r], &jb->rng);
    else
        dst = rank_pattern_destination(&jb->pattern, r, &jb->rng);
    if (jb->message_packets) {
        workload_send(w, net, j, r, dst, jb->message_packets, (uint64_t)jb->cfg->message_bytes, 0);
        return;
    }
    uint32_t packet;
    int rc = network_inject_packet(net, (uint32_t)jb->rank_node[r], (uint32_t)jb->rank_node[dst],
                                   &packet);
    if (rc == 0) {
        network_packet(net, packet)->mode = (uint8_t)jb->cfg->ugal_preset;
        workload_queued(w, jb->rank_node[r]);
    }
    jb->in_network += rc == 0;
    if (!net->measuring)
        return;
    uint64_t phits = (uint64_t)net->packet_size;
    jb->stats.offered_phits += phits;
    if (rc == 0) {
        jb->stats.generated++;
        jb->stats.generated_phits += phits;
    } else {
        jb->stats.refused++;
        jb->stats.refused_phits += phits;
    }
}

/* The ranks of an open-loop job whose process fires this cycle, in rank order, each drawing
 * the cycle of its next message after its destination (injection_calendar.h). */
static void workload_open_loop_cycle(struct workload *w, struct network *net, int j)
{
    struct workload_job *jb = &w->jobs[j];
    uint64_t now = net->cycle;
    while (injection_calendar_next(&jb->calendar) <= now && net->status == SIM_OK) {
        int32_t r = injection_calendar_top(&jb->calendar);
        workload_open_loop_fire(w, net, j, r);
        injection_calendar_reschedule_top(
            &jb->calendar, injection_process_next(&jb->process, r, now + 1, &jb->rng));
    }
}

/* An open-ended job completed its iterations while others still run: it begins them again,
 * every rank at once, in a new motif run (nothing of the last one is in flight: every
 * message it sent was received). Its later rounds draw their seeds from its motif stream. */
static void workload_job_restart(struct workload_job *jb, struct network *net)
{
    struct motif_params params;
    char why[512] = "";
    job_motif_params(jb->cfg, &params);
    jb->iterations_before += motif_run_iterations_completed(jb->motif);
    jb->rounds++;
    jb->rounds_end_cycle = net->cycle;
    struct motif_run *next = motif_run_create(job_motif(jb->cfg), &params, jb->nranks,
                                              rng_next(&jb->motif_seeds), why, sizeof why, NULL);
    if (!next) { /* it was created once with these params: only memory can fail */
        net->status = SIM_NOMEM;
        return;
    }
    /* The intensity gap owed after the last round's last iteration: without it a
     * one-iteration congestor would restart at once and ignore its intensity. */
    motif_run_carry_gaps(next, jb->motif);
    if (jb->recorder)
        motif_run_observe_compute(next, workload_record_compute, jb->recorder);
    motif_run_destroy(jb->motif);
    jb->motif = next;
    motif_run_start(jb->motif, net->cycle);
}

/* A closed-loop job ends when its last rank finishes: on a delivery, a send leaving the NIC or
 * a step with nothing to wait for (an allreduce's empty last doubling step), so each asks. An
 * open-ended job never ends: it restarts while a job without open_ended runs. */
static void workload_job_check_done(struct workload *w, struct workload_job *jb,
                                    struct network *net)
{
    if (!closed_done(jb) || jb->end_cycle)
        return;
    if (!jb->open_ended) {
        jb->end_cycle = net->cycle;
        w->running_closed--;
    } else if (w->running_closed > 0) {
        workload_job_restart(jb, net);
    }
}

static void workload_closed_loop_cycle(struct workload *w, struct network *net, int j)
{
    struct workload_job *jb = &w->jobs[j];
    if (jb->end_cycle || closed_next_wake(jb) > net->cycle)
        return;
    struct workload_motif_send ctx = {w, net, j};
    if (jb->trace ? trace_replay_advance(jb->trace, net->cycle, workload_motif_send, &ctx) != 0
                  : motif_run_advance(jb->motif, net->cycle, workload_motif_send, &ctx) != 0) {
        snprintf(net->message, sizeof net->message, "cycle %" PRIu64 ": job '%s': %s", net->cycle,
                 jb->cfg->name,
                 jb->trace ? trace_replay_error(jb->trace) : motif_run_error(jb->motif));
        net->status = SIM_INVARIANT;
    }
    workload_job_check_done(w, jb, net);
}

/* The throttle of a node's NIC, its windows closed up to now; NULL when its job has none. */
static struct throttle_node *workload_nic_throttle(struct workload *w, int32_t node, uint64_t now,
                                                   const struct throttle_params **params)
{
    if (!w->throttle)
        return NULL;
    *params = &w->jobs[w->node_job[node]].throttle;
    if ((*params)->kind == THROTTLE_NONE)
        return NULL;
    throttle_node_advance(&w->throttle[node], *params, now);
    return &w->throttle[node];
}

/* Hands the NIC's packets to the injection queues at the node link's bandwidth: a packet
 * starts when the link is free, to the tick (as on every link), while its queue has room;
 * a packet that finds its queue full waits there, a stall cycle of its job. A throttled job's
 * packet also waits for its token bucket (a cycle in which the bucket holds the packet is
 * still ready, and stalled if the queue is full: the stall fraction measures back-pressure,
 * whatever the throttle does): the rate delays packets, not messages, so that a
 * rate holds whatever the message size (a gap between message sends would let a long message
 * leave at line rate) and the NIC's existing per-packet pacing is the only place it acts. */
/* The packets a NIC hands to the injection queues this cycle, its link free for the first. */
/* The queue whose head packet goes next: the responses, then the requests while the window
 * has room; NULL when none may go. */
static uint32_t *workload_nic_next(const struct workload *w, struct workload_nic *nic, int32_t node)
{
    if (nic->response_head)
        return &nic->response_head;
    if (!nic->head)
        return NULL;
    uint32_t window = w->jobs[w->node_job[node]].window;
    return window == 0 || nic->outstanding < window ? &nic->head : NULL;
}

static void workload_nic_inject(struct workload *w, struct network *net, int32_t node, uint64_t now,
                                uint64_t now_tick)
{
    struct workload_nic *nic = &w->nic[node];
    struct link_rate rate = w->node_rate;
    const struct throttle_params *tp = NULL;
    struct throttle_node *th = workload_nic_throttle(w, node, now, &tp);
    w->jobs[w->node_job[node]].stats.nic_ready_cycles += net->measuring;
    workload_count_ready(w, net, node, th);
    uint32_t *head;
    while ((head = workload_nic_next(w, nic, node)) != NULL) {
        uint32_t index = *head - 1;
        struct workload_message *m = &w->messages[index];
        struct workload_job *jb = &w->jobs[m->job];
        struct job_stats *st = &jb->stats;
        bool request = jb->response_packets && !m->request; /* one awaiting a response */
        uint32_t packet;
        bool held = th && !throttle_node_admits(th, tp, now);
        if (held || network_enqueue(net, m->src_node, m->dst_node, &packet) != 0) {
            if (!held || network_injection_full(net, m->src_node, m->dst_node)) {
                st->nic_stall_cycles += net->measuring;
                workload_count_stalled(w, net, node, th, m);
            }
            break;
        }
        workload_queued(w, node);
        if (th)
            throttle_node_sent(th, tp);
        net->pool.tags[packet] = index + 1;
        w->jobs[m->job].in_network++;
        uint64_t start = nic->free_tick > now_tick ? nic->free_tick : now_tick;
        nic->free_tick = start + (uint64_t)net->packet_size * rate.den;
        if (net->measuring) {
            st->generated++;
            st->generated_phits += (uint64_t)net->packet_size;
        }
        network_packet(net, packet)->mode = m->mode;
        if (request && jb->app_aware)
            w->selector[node].flits[m->selected] += (uint64_t)net->packet_size;
        if (request) {
            nic->outstanding++;
            if (net->measuring) {
                st->request_packets++;
                st->request_phits += (uint64_t)net->packet_size;
            }
        }
        if (++m->created_packets == m->packets) {
            *head = m->next;
            if (!*head)
                *(head == &nic->head ? &nic->tail : &nic->response_tail) = 0;
            m->next = 0;
        }
        if (nic->free_tick >= now_tick + rate.num)
            break;
    }
}

static bool workload_nic_cycle(struct workload *w, struct network *net, int32_t node)
{
    struct workload_nic *nic = &w->nic[node];
    struct link_rate rate = w->node_rate;
    uint64_t now = net->cycle, now_tick = now * rate.num;
    if (nic->free_tick < now_tick + rate.num && workload_nic_next(w, nic, node)) /* ready */
        workload_nic_inject(w, net, node, now, now_tick);
    if (nic->head || nic->response_head)
        return true;
    nic->active = false;
    return false;
}

void workload_throttle_rates(const struct workload *w, int job, uint64_t now, double *final_rate,
                             double *mean_rate)
{
    const struct workload_job *jb = &w->jobs[job];
    *final_rate = *mean_rate = jb->throttle.rate;
    if (jb->throttle.kind != THROTTLE_AIMD || !w->throttle)
        return;
    double final_sum = 0, rate_sum = 0;
    uint64_t windows = 0;
    for (int r = 0; r < jb->nranks; r++) {
        struct throttle_node n = w->throttle[jb->rank_node[r]]; /* a copy: the run is over */
        throttle_node_advance(&n, &jb->throttle, now);
        final_sum += n.rate;
        rate_sum += n.rate_sum;
        windows += n.windows;
    }
    *final_rate = final_sum / jb->nranks;
    *mean_rate = windows ? rate_sum / (double)windows : *final_rate;
}

static void workload_start_closed(struct workload *w, struct network *net)
{
    for (int j = 0; j < w->n_jobs; j++) {
        struct workload_job *jb = &w->jobs[j];
        if (jb->closed && jb->active) {
            closed_start(jb, net->cycle);
            jb->start_cycle = net->cycle;
        }
    }
    w->started = true;
}

void workload_generate(struct workload *w, struct network *net)
{
    if (w->has_closed && !w->started && net->measuring)
        workload_start_closed(w, net);
    for (int j = 0; j < w->n_jobs && net->status == SIM_OK; j++) {
        if (!w->jobs[j].active)
            continue;
        if (!w->jobs[j].closed)
            workload_open_loop_cycle(w, net, j);
        else if (w->started)
            workload_closed_loop_cycle(w, net, j);
    }
    int kept = 0;
    for (int i = 0; i < w->n_active_nics && net->status == SIM_OK; i++)
        if (workload_nic_cycle(w, net, w->active_nics[i]))
            w->active_nics[kept++] = w->active_nics[i];
    if (net->status == SIM_OK)
        w->n_active_nics = kept;
}

void workload_packet_injected(struct workload *w, struct network *net, uint32_t packet)
{
    const struct packet *pk = network_packet(net, packet);
    struct workload_job *jb = &w->jobs[w->node_job[pk->src]];
    const struct throttle_params *tp;
    w->stall[pk->src].queued--;
    workload_count_ready(w, net, (int32_t)pk->src,
                         workload_nic_throttle(w, (int32_t)pk->src, net->cycle, &tp));
    if (net->measuring) {
        jb->stats.injected++;
        jb->stats.injected_phits += (uint64_t)net->packet_size;
    }
    uint32_t tag = net->pool.tags[packet];
    if (!tag)
        return;
    struct workload_message *m = &w->messages[tag - 1];
    /* A send of a job with responses completes when its responses are in (message_answered). */
    if (m->injected + 1 == m->packets && !m->request && jb->recorder &&
        trace_writer_left(jb->recorder, m->src_rank, net->cycle) != 0)
        net->status = SIM_NOMEM;
    if (++m->injected == m->packets && jb->closed && !jb->response_packets) {
        closed_sent(jb, m->src_rank, m->tag, net->cycle);
        workload_job_check_done(w, jb, net);
    }
}

/* The last packet of a response arrived at the requester: one request packet answered, the
 * window opens by one; the last answer completes the request's send. */
static void workload_response_done(struct workload *w, struct network *net, uint32_t index)
{
    const struct workload_message *m = &w->messages[index];
    uint32_t request = m->request - 1;
    struct workload_message *r = &w->messages[request];
    struct workload_job *jb = &w->jobs[m->job];
    w->nic[r->src_node].outstanding--;
    if (jb->app_aware) {
        struct workload_selector *sel = &w->selector[r->src_node];
        sel->responses[m->selected]++;
        sel->latency[m->selected] += net->cycle - m->request_cycle;
    }
    if (net->measuring) {
        jb->stats.responses++;
        jb->stats.request_response_cycles += net->cycle - m->request_cycle;
    }
    workload_message_free(w, index);
    if (++r->answered < r->packets)
        return;
    if (jb->closed) {
        closed_sent(jb, r->src_rank, r->tag, net->cycle);
        workload_job_check_done(w, jb, net);
    }
    workload_message_free(w, request);
}

static void workload_message_done(struct workload *w, struct network *net, uint32_t index)
{
    struct workload_message *m = &w->messages[index];
    struct workload_job *jb = &w->jobs[m->job];
    if (m->request) {
        workload_response_done(w, net, index);
        return;
    }
    if (net->measuring) {
        jb->stats.messages_delivered++;
        if (latency_histogram_add(&jb->stats.message_latency, net->cycle - m->created))
            net->status = SIM_NOMEM;
    }
    if (jb->recorder &&
        trace_writer_received(jb->recorder, m->src_rank, m->dst_rank, m->bytes, m->created,
                              net->cycle) != 0)
        net->status = SIM_NOMEM;
    if (jb->closed) {
        closed_delivered(jb, m->src_rank, m->dst_rank, m->tag, net->cycle);
        workload_job_check_done(w, jb, net);
    }
    if (!jb->response_packets) /* else freed with its last answer */
        workload_message_free(w, index);
}

void workload_packet_delivered(struct workload *w, struct network *net, uint32_t packet,
                               uint64_t latency)
{
    const struct packet *pk = network_packet(net, packet);
    struct workload_job *jb = &w->jobs[w->node_job[pk->src]];
    jb->in_network--;
    if (net->measuring) {
        jb->stats.delivered++;
        jb->stats.delivered_phits += (uint64_t)net->packet_size;
        jb->stats.misrouted_global += (pk->flags & PACKET_GLOBAL_MISROUTED) != 0;
        jb->stats.nonminimal_decisions += (pk->flags & PACKET_NONMINIMAL_DECISION) != 0;
        jb->stats.phantom += (pk->flags & PACKET_PHANTOM) != 0;
        if (latency_histogram_add(&jb->stats.packet_latency, latency))
            net->status = SIM_NOMEM;
    }
    uint32_t tag = net->pool.tags[packet];
    if (!tag)
        return;
    struct workload_message *m = &w->messages[tag - 1];
    if (!m->packets || m->delivered >= m->packets) {
        /* Cheap enough to check always: a message completes exactly once. */
        snprintf(net->message, sizeof net->message,
                 "cycle %" PRIu64 ": packet %u of job '%s' arrived for message %u, which "
                 "already completed (a packet duplicated)",
                 net->cycle, pk->id, jb->cfg->name, tag - 1);
        net->status = SIM_INVARIANT;
        return;
    }
    if (jb->response_packets && !m->request && workload_respond(w, net, tag - 1, pk->gen_cycle))
        return;
    m = &w->messages[tag - 1]; /* workload_respond may have moved the messages */
    if (++m->delivered == m->packets)
        workload_message_done(w, net, tag - 1);
}

/* The stalls of one node's injection queues this cycle (its crossbar input is free). */
static void workload_node_injection_stalls(struct workload *w, const struct network *net,
                                           int32_t node)
{
    uint64_t now = net->cycle;
    const struct input_vc *vcs = &net->input_vc[w->node_vc[node]];
    struct throttle_node *th = NULL;
    bool stalled = false;
    for (int vc = 0; vc < net->vcs_injection; vc++) {
        const struct packet_ring *ring = &vcs[vc].ring;
        if (!ring->count || ring->head_ready > now)
            continue;
        uint32_t index = ring_front(ring);
        if (network_packet(net, index)->tail_cycle > now)
            continue; /* its phits are not all there */
        if (!stalled) {
            const struct throttle_params *tp;
            th = workload_nic_throttle(w, node, now, &tp);
            w->jobs[w->node_job[node]].stats.injection_stall_cycles += net->measuring;
            stalled = true;
        }
        uint32_t tag = net->pool.tags[index];
        workload_count_stalled(w, net, node, th, tag ? &w->messages[tag - 1] : NULL);
    }
}

void workload_count_injection_stalls(struct workload *w, const struct network *net)
{
    const struct topology *t = &net->topo;
    int words = (t->nodes + 63) / 64;
    uint32_t now = (uint32_t)net->cycle;
    for (int word = 0; word < words; word++) {
        /* First the head packets these 64 nodes' pass will read (their tails), so that
         * their misses overlap. Speed only. In line: GCC takes a function that only
         * prefetches for a pure one and drops its calls. */
        for (uint64_t bits = w->queued_mask[word]; bits; bits &= bits - 1) {
            int32_t node = word * 64 + __builtin_ctzll(bits);
            if (!w->stall[node].queued || net->ports[w->node_port[node]].input_busy_until > now)
                continue;
            const struct input_vc *vcs = &net->input_vc[w->node_vc[node]];
            for (int vc = 0; vc < net->vcs_injection; vc++)
                if (vcs[vc].ring.count && vcs[vc].ring.head_ready <= now)
                    __builtin_prefetch(network_packet(net, ring_front(&vcs[vc].ring)));
        }
        for (uint64_t bits = w->queued_mask[word]; bits; bits &= bits - 1) {
            int32_t node = word * 64 + __builtin_ctzll(bits);
            if (!w->stall[node].queued) {
                w->queued_mask[word] &= ~(1ull << (node & 63));
                continue;
            }
            if (net->ports[w->node_port[node]].input_busy_until > net->cycle)
                continue; /* moving a packet (taken this cycle or before): not stalled */
            workload_node_injection_stalls(w, net, node);
        }
    }
}

uint64_t workload_next_activity(const struct workload *w, const struct network *net)
{
    uint64_t now = net->cycle, next = UINT64_MAX;
    if (w->n_active_nics)
        return now;
    for (int j = 0; j < w->n_jobs; j++) {
        const struct workload_job *jb = &w->jobs[j];
        if (!jb->active || jb->end_cycle)
            continue;
        if (!jb->closed) {
            uint64_t fires = injection_calendar_next(&jb->calendar);
            next = fires < next ? fires : next;
            continue;
        }
        uint64_t wake = w->started ? closed_next_wake(jb)
                                   : (uint64_t)net->cfg->sim.warmup_cycles; /* they start then */
        next = wake < next ? wake : next;
    }
    return next < now ? now : next;
}

bool workload_finished(const struct workload *w)
{
    return w->has_closed && w->started && w->running_closed == 0;
}

double workload_progress(const struct workload *w)
{
    if (!w->has_closed || !w->started)
        return -1;
    double least = 1;
    for (int j = 0; j < w->n_jobs; j++) {
        const struct workload_job *jb = &w->jobs[j];
        if (!jb->closed || !jb->active || jb->end_cycle || jb->open_ended)
            continue;
        double done = jb->trace ? (double)trace_replay_ops_done(jb->trace) /
                                      (double)(trace_replay_ops_total(jb->trace) + 1)
                                : (double)motif_run_iterations_completed(jb->motif) /
                                      jb->cfg->iterations;
        if (done < least)
            least = done;
    }
    return least;
}

bool workload_stuck(const struct workload *w, const struct network *net, char *why, size_t len)
{
    if (!w->has_closed || !w->started || w->running_closed == 0 || net->in_network ||
        w->n_active_nics)
        return false;
    for (int j = 0; j < w->n_jobs; j++) {
        const struct workload_job *jb = &w->jobs[j];
        if (jb->closed && jb->active && !jb->end_cycle && closed_next_wake(jb) != UINT64_MAX)
            return false;
    }
    for (int j = 0; j < w->n_jobs; j++) {
        const struct workload_job *jb = &w->jobs[j];
        if (!jb->closed || !jb->active || jb->end_cycle)
            continue;
        char ranks[700];
        if (jb->trace) {
            int waiting = trace_replay_describe_waiting(jb->trace, ranks, sizeof ranks);
            snprintf(why, len,
                     "deadlock: job '%s' (trace %s) waits on its own dependencies with nothing "
                     "in the network at cycle %" PRIu64 ": %d ranks wait: %s",
                     jb->cfg->name, trace_job_settings_of(jb->cfg)->trace, net->cycle, waiting, ranks);
            return true;
        }
        int waiting = motif_run_describe_waiting(jb->motif, ranks, sizeof ranks);
        snprintf(why, len,
                 "deadlock: job '%s' (motif %s) waits on its own dependencies with nothing in "
                 "the network at cycle %" PRIu64 ": %d ranks wait: %s",
                 jb->cfg->name, job_motif(jb->cfg)->name, net->cycle, waiting, ranks);
        return true;
    }
    return false;
}

/* ---- invariants ---- */

int workload_check(const struct workload *w, const uint32_t *message_found,
                   const uint64_t *job_found, char *why, size_t len)
{
    for (int j = 0; j < w->n_jobs; j++) {
        if (job_found[j] != w->jobs[j].in_network) {
            snprintf(why, len,
                     "job '%s': %" PRIu64 " of its packets are in the network, it counts %" PRIu64,
                     w->jobs[j].cfg->name, job_found[j], w->jobs[j].in_network);
            return -1;
        }
    }
    for (uint32_t i = 0; i < w->n_messages; i++) {
        const struct workload_message *m = &w->messages[i];
        if (!m->packets)
            continue; /* free */
        bool awaiting = !m->request && m->answered < m->packets &&
                        w->jobs[m->job].response_packets; /* delivered, not yet answered */
        if (m->created_packets > m->packets || m->injected > m->created_packets ||
            m->delivered > m->injected || (m->delivered == m->packets && !awaiting)) {
            snprintf(why, len,
                     "message %u of job '%s' (%d -> %d): %u packets, %u created, %u injected, "
                     "%u delivered (expected created >= injected >= delivered, and the message "
                     "complete once all are delivered)",
                     i, w->jobs[m->job].cfg->name, m->src_rank, m->dst_rank, m->packets,
                     m->created_packets, m->injected, m->delivered);
            return -1;
        }
        if (message_found[i] != m->created_packets - m->delivered) {
            snprintf(why, len,
                     "message %u of job '%s' (%d -> %d): %u of its packets are in the network, "
                     "%u created and %u delivered (a packet lost or duplicated)",
                     i, w->jobs[m->job].cfg->name, m->src_rank, m->dst_rank, message_found[i],
                     m->created_packets, m->delivered);
            return -1;
        }
    }
    return 0;
}
