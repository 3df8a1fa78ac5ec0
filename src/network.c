/* network: building the network's state and the operations that touch only it (see
 * network.h). Layer: the bottom of the core; it changes the network's state and nothing else,
 * and includes no header of the layers above (router, workload, observers, sim). */
#include "network.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_config.h"
#include "memory.h"

enum { RNG_STREAM_ROUTING = 2 };

/* The port tables of one router kind: VCs, offsets and link latencies by port class. */
static void network_layout_kind(struct network *net, const struct router_kind *kind,
                                struct network_layout *layout)
{
    const struct sim_config *cfg = net->cfg;
    const int vcs[PORT_CLASSES] = {net->vcs_injection, net->vcs_local, net->vcs_global};
    const int latency[PORT_CLASSES] = {cfg->links.injection_latency, cfg->links.local_latency,
                                       cfg->links.global_latency};
    int offset = 0;
    layout->kind = kind;
    for (int port = 0; port < kind->radix; port++) {
        enum port_class cls = (enum port_class)kind->port_class[port];
        layout->port_class[port] = (uint8_t)cls;
        layout->port_vcs[port] = vcs[cls];
        layout->port_latency[port] = latency[cls];
        layout->port_vc_offset[port] = offset;
        layout->ring_capacity[port] = (uint16_t)(net->capacity_phits[cls] / net->packet_size);
        layout->port_capacity[port] = net->capacity_phits[cls];
        offset += vcs[cls];
        if (cls != PORT_NODE)
            layout->transit_port_mask |= 1ull << port;
    }
    layout->vcs_per_router = offset;
}

static void network_layout_ports(struct network *net)
{
    const struct sim_config *cfg = net->cfg;
    double bandwidth[PORT_CLASSES];
    config_link_bandwidths(cfg, bandwidth);
    net->capacity_phits[PORT_NODE] = cfg->buffers.injection;
    net->capacity_phits[PORT_LOCAL] = cfg->buffers.local;
    net->capacity_phits[PORT_GLOBAL] = cfg->buffers.global;
    for (int c = 0; c < PORT_CLASSES; c++) {
        /* The config check accepted every bandwidth (config.c): the fraction exists. */
        link_rate_from_bandwidth(bandwidth[c], &net->link_rate[c]);
        net->serialization[c] = link_rate_cycles(net->link_rate[c], (uint32_t)net->packet_size);
    }
    for (int k = 0; k < net->topo.n_kinds; k++)
        network_layout_kind(net, &net->topo.kinds[k], &net->layouts[k]);
}

static int network_init_sensing(struct network *net, size_t vcs);

_Static_assert(sizeof(struct packet_ring) == 16, "four rings per cache line");
_Static_assert(sizeof(struct port_state) == 32, "two ports per cache line");
_Static_assert(sizeof(struct input_vc) == 40, "a ring and a decision, no padding");

/* Carves every ring out of one slot array; credits start at the downstream capacity. */
static int network_alloc_buffers(struct network *net)
{
    const struct topology *t = &net->topo;
    int out_packets = net->cfg->buffers.output / net->packet_size;
    size_t ports = t->port_base[t->routers], vcs = 0, slots = 0;
    net->router_vc_base = memory_alloc_array((size_t)t->routers, sizeof *net->router_vc_base);
    if (!net->router_vc_base)
        return -1;
    for (int r = 0; r < t->routers; r++) {
        const struct network_layout *layout = network_layout_of(net, r);
        net->router_vc_base[r] = (uint32_t)vcs;
        vcs += (size_t)layout->vcs_per_router;
        for (int port = 0; port < layout->kind->radix; port++)
            slots +=
                (size_t)layout->port_vcs[port] * layout->ring_capacity[port] + (size_t)out_packets;
    }
    net->slots = memory_alloc_array(slots, sizeof *net->slots);
    net->input_vc = memory_alloc_array(vcs, sizeof *net->input_vc);
    net->credits = memory_alloc_array(vcs, sizeof *net->credits);
    net->input_next = memory_alloc_array(ports, sizeof *net->input_next);
    net->ports = memory_alloc_array(ports, sizeof *net->ports);
    net->routers = memory_alloc_array((size_t)t->routers, sizeof *net->routers);
    if (!net->slots || !net->input_vc || !net->credits || !net->input_next ||
        !net->ports || !net->routers)
        return -1;
    net->output_capacity = (uint16_t)out_packets;
    net->router_state_bytes =
        vcs * (sizeof *net->input_vc + sizeof *net->credits) +
        ports * (sizeof *net->ports + sizeof *net->input_next);
    uint32_t base = 0;
    for (int r = 0; r < t->routers; r++) {
        const struct network_layout *layout = network_layout_of(net, r);
        for (int port = 0; port < layout->kind->radix; port++) {
            int cls = layout->port_class[port];
            for (int vc = 0; vc < layout->port_vcs[port]; vc++) {
                int idx = network_vc_index(net, r, port, vc);
                net->input_vc[idx].ring = (struct packet_ring){.base = base};
                base += layout->ring_capacity[port];
                net->credits[idx] = cls == PORT_NODE ? 0 : net->capacity_phits[cls];
            }
            struct port_state *ps = network_port(net, r, port);
            ps->output = (struct packet_ring){.base = base};
            base += (uint32_t)out_packets;
        }
    }
    return network_init_sensing(net, vcs);
}

/* The fixed part of every router's view (network_router_view). */
static int network_init_router_views(struct network *net)
{
    net->router_views = memory_alloc_array((size_t)net->topo.routers, sizeof *net->router_views);
    if (!net->router_views)
        return -1;
    for (int r = 0; r < net->topo.routers; r++) {
        const struct network_layout *layout = network_layout_of(net, r);
        net->router_views[r] = (struct router_view){
            .router = r,
            .kind = layout->kind,
            .credits = &net->credits[net->router_vc_base[r]],
            .credits_ahead =
                net->credits_ahead ? &net->credits_ahead[net->router_vc_base[r]] : NULL,
            .vc_offset = layout->port_vc_offset,
            .ports = network_port(net, r, 0),
            .capacity = layout->port_capacity,
            .output_capacity = net->output_capacity,
        };
    }
    return 0;
}

static void network_env_view(const struct routing_env *env, int router, struct router_view *out)
{
    network_router_view(env->owner, router, out);
}

/* What the routing mechanism sees of the run (routing.h). */
static void network_init_routing_env(struct network *net)
{
    const struct sim_config *cfg = net->cfg;
    struct routing_env *env = &net->routing_env;
    env->topo = &net->topo;
    env->ladder = &net->ladder;
    env->params = settings_params(cfg, net->routing->settings);
    env->global_policy =
        ((const struct misroute_policy_params *)settings_params(cfg, &misroute_policy_settings))
            ->global_policy;
    env->packet_size = net->packet_size;
    env->vcs[PORT_NODE] = net->vcs_injection;
    env->vcs[PORT_LOCAL] = net->vcs_local;
    env->vcs[PORT_GLOBAL] = net->vcs_global;
    env->link_latency[PORT_NODE] = cfg->links.injection_latency;
    env->link_latency[PORT_LOCAL] = cfg->links.local_latency;
    env->link_latency[PORT_GLOBAL] = cfg->links.global_latency;
    env->rng = &net->routing_rng;
    env->min_choice = min_choice_resolve(cfg->routing.min_choice, net->topo.ops);
    env->modes = 1u;
    for (int j = 0; j < cfg->n_jobs; j++)
        env->modes |= job_routing_modes(&cfg->jobs[j]);
    env->view = network_env_view;
    env->views = net->router_views;
    env->owner = net;
    env->pool = &net->pool;
    env->sensing = net->sensing;
    if (net->sensing.far_end) {
        env->far_end = &net->far_end;
        env->far_end_fresh = net->sensing.fresh_credits ? &net->far_end_fresh : NULL;
        env->global_port_base = net->global_port_base;
    }
}

/* The most local hops between two routers of one group (minimal paths): how far, in local
 * links, a global port's occupancy travels to the routers of its group. */
static int network_max_group_hops(const struct topology *t)
{
    int most = 0;
    for (int g = 0; g < t->groups; g++) {
        int first = t->group_first_router[g], end = t->group_first_router[g + 1];
        for (int a = first; a < end; a++)
            for (int b = first; b < end; b++) {
                int local, global;
                topology_min_hops(t, a, b, &local, &global);
                most = local > most ? local : most;
            }
    }
    return most;
}

/* The state routing_sensing asks for: fresh credits (none ahead of the credits yet), the
 * far-end histories and the global ports' numbering. */
static int network_init_sensing(struct network *net, size_t vcs)
{
    const struct topology *t = &net->topo;
    if (net->routing->sensing)
        net->routing->sensing(net->cfg, &net->sensing);
    net->sensed = net->sensing.far_end || net->sensing.fresh_credits;
    if (net->sensing.fresh_credits) {
        net->credits_ahead = memory_alloc_array(vcs, sizeof *net->credits_ahead);
        if (!net->credits_ahead)
            return -1;
    }
    if (!net->sensing.far_end)
        return 0;
    net->global_port_base = memory_alloc_array((size_t)t->routers, sizeof *net->global_port_base);
    if (!net->global_port_base)
        return -1;
    uint32_t ports = 0;
    for (int r = 0; r < t->routers; r++) {
        net->global_port_base[r] = ports;
        ports += (uint32_t)topology_kind_of(t, r)->count[PORT_GLOBAL];
    }
    uint32_t hops = (uint32_t)network_max_group_hops(t);
    uint32_t delay = hops * (uint32_t)net->cfg->links.local_latency;
    if (far_end_init(&net->far_end, ports, net->sensing.far_end_step, delay))
        return -1;
    if (net->sensing.fresh_credits && far_end_init(&net->far_end_fresh, ports, 1, hops))
        return -1;
    return 0;
}

void network_sense_grant(struct network *net, int router, int port)
{
    uint32_t global = network_global_port(net, router, port), now = (uint32_t)net->cycle;
    far_end_change(&net->far_end, global, now, net->packet_size);
    if (net->credits_ahead)
        far_end_change(&net->far_end_fresh, global, now, net->packet_size);
}

/* The far-end history `h` of (router, port) when it is a global port and the far end is
 * sensed: its occupancy drops by a packet now. */
static void network_sense_drop(struct network *net, struct far_end *h, int router, int port)
{
    if (net->sensing.far_end && network_port_class(net, router, port) == PORT_GLOBAL)
        far_end_change(h, network_global_port(net, router, port), (uint32_t)net->cycle,
                       -net->packet_size);
}

void network_sense_credit(struct network *net, int router, int port, int vc, bool fresh)
{
    network_sense_drop(net, &net->far_end, router, port);
    if (fresh) /* the fresh credit came with it: the fresh count drops now too */
        network_sense_drop(net, &net->far_end_fresh, router, port);
    else if (net->credits_ahead) /* its fresh credit came earlier */
        net->credits_ahead[network_vc_index(net, router, port, vc)] -= net->packet_size;
}

void network_sense_fresh_credit(struct network *net, int router, int port, int vc)
{
    net->credits_ahead[network_vc_index(net, router, port, vc)] += net->packet_size;
    network_sense_drop(net, &net->far_end_fresh, router, port);
}

/* The longest a link event can be scheduled ahead: the wheel's span. */
static uint32_t network_max_delay(const struct network *net)
{
    const struct sim_config *cfg = net->cfg;
    uint32_t slowest = 0;
    for (int c = 0; c < PORT_CLASSES; c++)
        if (net->serialization[c] > slowest)
            slowest = net->serialization[c];
    return (uint32_t)(cfg->links.global_latency + cfg->links.local_latency +
                      cfg->links.injection_latency + 2 * (int)slowest + net->xbar_cycles + 2);
}

static int network_init_parts(struct network *net, char *err, int err_len)
{
    network_layout_ports(net);
    if (network_alloc_buffers(net) || network_init_router_views(net)) {
        snprintf(err, (size_t)err_len, "out of memory for the router buffers");
        return -1;
    }
    int routers = net->topo.routers;
    net->counts.router_injected =
        calloc(routers > 0 ? (size_t)routers : 1, sizeof *net->counts.router_injected);
    if (event_wheel_init(&net->wheel, network_max_delay(net)) ||
        packet_pool_init(&net->pool, (uint32_t)net->topo.nodes * 4) ||
        !net->counts.router_injected) {
        snprintf(err, (size_t)err_len, "out of memory");
        return -1;
    }
    network_init_routing_env(net);
    if (net->routing->init && net->routing->init(&net->routing_env)) {
        snprintf(err, (size_t)err_len, "cannot initialise routing '%s'", net->routing->name);
        return -1;
    }
    return 0;
}

int network_create(struct network *net, const struct sim_config *cfg, char *err, int err_len)
{
    net->cfg = cfg;
    if (topology_create(&net->topo, cfg, err, err_len))
        return -1;
    net->routing = routing_registry[cfg->routing.mechanism];
    net->arbiter = arbiter_registry[cfg->router.arbiter];
    net->routing->ladder(cfg, &net->ladder);
    net->packet_size = cfg->traffic.packet_size;
    net->xbar_cycles = config_crossbar_cycles(cfg);
    net->vcs_local = cfg->vcs.local;
    net->vcs_global = cfg->vcs.global;
    net->vcs_injection = cfg->vcs.injection;
    rng_seed(&net->routing_rng, (uint64_t)cfg->sim.seed, RNG_STREAM_ROUTING);
    return network_init_parts(net, err, err_len);
}

void network_destroy(struct network *net)
{
    if (net->routing && net->routing->destroy)
        net->routing->destroy(&net->routing_env);
    packet_pool_free(&net->pool);
    event_wheel_free(&net->wheel);
    free(net->slots);
    free(net->input_vc);
    free(net->credits);
    free(net->credits_ahead);
    free(net->global_port_base);
    far_end_free(&net->far_end);
    far_end_free(&net->far_end_fresh);
    free(net->input_next);
    free(net->ports);
    free(net->routers);
    free(net->router_vc_base);
    free(net->router_views);
    free(net->counts.router_injected);
    free(net->injected_log);
    free(net->link_phits);
    topology_free(&net->topo);
}

int network_count_link_load(struct network *net)
{
    size_t ports = net->topo.port_base[net->topo.routers];
    net->link_phits = calloc(ports > 0 ? ports : 1, sizeof *net->link_phits);
    if (!net->link_phits)
        return -1;
    net->observe_sends = true;
    return 0;
}

void network_observe_send(struct network *net, int router, int out_port, uint32_t index,
                          uint64_t arrival)
{
    if (net->link_phits && net->measuring)
        net->link_phits[topology_port_base(&net->topo, router) + (uint32_t)out_port] +=
            (uint64_t)net->packet_size;
    if (net->on_send)
        net->on_send(net->on_send_ctx, net, router, out_port, index, arrival);
}

int network_log_injections(struct network *net)
{
    net->injected_log =
        malloc((size_t)(net->topo.nodes > 0 ? net->topo.nodes : 1) * sizeof *net->injected_log);
    return net->injected_log ? 0 : -1;
}

void network_enter_buffer(struct network *net, int router, int port, int vc, uint32_t index,
                          uint64_t head_arrival)
{
    struct packet *pk = network_packet(net, index);
    pk->ready_cycle = (uint32_t)(head_arrival + (uint64_t)net->cfg->router.latency - 1);
    pk->vc = (uint8_t)vc;
    const struct network_layout *layout = network_layout_of(net, router);
    uint32_t port_index = topology_port_base(&net->topo, router) + (uint32_t)port;
    struct packet_ring *ring =
        &net->input_vc[network_vc_base(net, router) + layout->port_vc_offset[port] + (uint32_t)vc]
             .ring;
    ring_push(net->slots, ring, layout->ring_capacity[port], index);
    struct port_state *ps = &net->ports[port_index];
    if (ring->count == 1) {
        ring->head_ready = pk->ready_cycle;
        ps->routed_vc_mask &= (uint16_t) ~(1u << vc);
        /* Keep the input's bound below this head's first chance (see network.h). */
        uint32_t first =
            pk->ready_cycle > ps->input_busy_until ? pk->ready_cycle : ps->input_busy_until;
        uint32_t *next = &net->input_next[port_index];
        if (first < *next)
            *next = first;
        if (net->routing->pure)
            network_route_early(net, router, port, vc, ps, pk);
    }
    ps->input_vc_mask |= (uint16_t)(1u << vc);
    struct router_state *rs = &net->routers[router];
    rs->input_nonempty |= 1ull << port;
    if (pk->ready_cycle < rs->allocate_wake)
        rs->allocate_wake = pk->ready_cycle;
}

void network_route_early(struct network *net, int router, int port, int vc,
                         struct port_state *input, const struct packet *head)
{
    struct route_choice *ch = &net->input_vc[network_vc_index(net, router, port, vc)].route;
    struct route_ctx ctx;
    network_route_ctx(net, router, &ctx);
    /* A failure is left to the allocator, which reports it when the head is due. */
    if (network_decide(net, &ctx, port, head, ch) == 0) {
        ch->cycle = ctx.now;
        input->routed_vc_mask |= (uint16_t)(1u << vc);
    }
}

bool network_injection_full(const struct network *net, uint32_t src, uint32_t dst)
{
    const struct topology *t = &net->topo;
    int vc = (int)((uint64_t)dst * (uint64_t)net->vcs_injection / (uint64_t)t->nodes);
    int router = topology_router_of_node(t, (int)src), port = topology_node_port(t, (int)src);
    const struct packet_ring *ring = &net->input_vc[network_vc_index(net, router, port, vc)].ring;
    return ring->count == network_layout_of(net, router)->ring_capacity[port];
}

int network_enqueue(struct network *net, uint32_t src, uint32_t dst, uint32_t *packet)
{
    const struct topology *t = &net->topo;
    uint64_t now = net->cycle;
    int vc = (int)((uint64_t)dst * (uint64_t)net->vcs_injection / (uint64_t)t->nodes);
    int router = topology_router_of_node(t, (int)src), port = topology_node_port(t, (int)src);
    struct packet_ring *ring = &net->input_vc[network_vc_index(net, router, port, vc)].ring;
    if (ring->count == network_layout_of(net, router)->ring_capacity[port])
        return -1;
    uint32_t index = packet_alloc(&net->pool);
    if (index == PACKET_NONE) {
        net->status = SIM_NOMEM;
        return -1;
    }
    struct packet *pk = network_packet(net, index);
    pk->src = src;
    pk->dst = dst;
    pk->gen_cycle = (uint32_t)now;
    pk->mark_cycle = (uint32_t)now;
    if (net->routing->on_generate)
        net->routing->on_generate(&net->routing_env, pk);
    uint64_t head = now + (uint64_t)net->cfg->links.injection_latency;
    pk->tail_cycle = (uint32_t)(head + net->serialization[PORT_NODE] - 1);
    network_enter_buffer(net, router, port, vc, index, head);
    net->in_network++;
    net->counts.total_generated++;
    if (net->measuring) {
        net->counts.generated++;
        net->counts.generated_phits += (uint64_t)net->packet_size;
    }
    if (packet)
        *packet = index;
    return 0;
}

int network_inject_packet(struct network *net, uint32_t src, uint32_t dst, uint32_t *packet)
{
    if (network_enqueue(net, src, dst, packet) == 0)
        return 0;
    if (net->measuring && net->status == SIM_OK) {
        net->counts.refused++;
        net->counts.refused_phits += (uint64_t)net->packet_size;
    }
    return -1;
}
