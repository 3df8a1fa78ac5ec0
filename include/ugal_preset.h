/* ugal_preset: the Aries routing modes a packet may carry (packet.mode), set by
 * routing.ugal_preset for the network and by a job's ugal_preset for its packets; ugal and
 * ugal_g read them (routing_ugal.h). */
#ifndef DFSIM_UGAL_PRESET_H
#define DFSIM_UGAL_PRESET_H

enum ugal_preset {
    UGAL_PRESET_NONE,
    UGAL_ADAPTIVE_0,
    UGAL_ADAPTIVE_1,
    UGAL_ADAPTIVE_2,
    UGAL_ADAPTIVE_3,
    UGAL_MIN_HASH,  /* Aries' MIN_HASH: always minimal, the path a hash of (src, dst, message) */
    UGAL_NMIN_HASH, /* NMIN_HASH: always nonminimal, the intermediate likewise hashed */
    UGAL_PRESETS
};

/* "none", "adaptive_0" .. "adaptive_3", "min_hash", "nmin_hash": routing.ugal_preset and a
 * job's ugal_preset. A packet's mode is its job's ugal_preset (0: the routing's own
 * settings). */
extern const char *const ugal_preset_names[];

#endif
