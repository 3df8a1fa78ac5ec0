/* Far-end congestion of ugal (routing.ugal_far_end, issue 30): the history rings of the global
 * ports' occupancy. */
#include <CUnit/CUnit.h>

#include "far_end.h"
#include "test_util.h"

/* ---- the history ---- */

/* A change is seen from the end of its cycle on; earlier cycles keep the value they had, also
 * across a long quiet spell (the skipped samples are filled); before the run every port is 0. */
static void test_history_every_cycle(void)
{
    struct far_end h;
    CU_ASSERT_EQUAL_FATAL(far_end_init(&h, 2, 1, 20), 0);
    CU_ASSERT_EQUAL(h.mask + 1, 32); /* 21 samples needed, a power of two kept */
    far_end_change(&h, 0, 5, 8);
    far_end_change(&h, 0, 5, 8);
    far_end_change(&h, 0, 9, -8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, -3), 0);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 4), 0);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 5), 16);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 8), 16);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 9), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 12), 8); /* after the last change: the current value */
    CU_ASSERT_EQUAL(far_end_current(&h, 0), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 1, 9), 0);
    far_end_change(&h, 0, 1000, 24); /* a whole turn later */
    for (int64_t c = 980; c < 1000; c++)
        CU_ASSERT_EQUAL(far_end_value(&h, 0, c), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 1000), 32);
    far_end_change(&h, 1, 1003, 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 1, 1002), 0);
    CU_ASSERT_EQUAL(far_end_value(&h, 1, 1003), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 1003), 32);
    far_end_free(&h);
}

/* Published every T cycles: a read of cycle c sees the value at the end of the last multiple of
 * T at or before c; a change between multiples is published at the next one. */
static void test_history_published(void)
{
    struct far_end h;
    CU_ASSERT_EQUAL_FATAL(far_end_init(&h, 1, 10, 20), 0);
    CU_ASSERT_EQUAL(h.mask + 1, 4); /* (20 + 18) / 10 + 1 = 4 samples */
    far_end_change(&h, 0, 3, 8);    /* published at the end of cycle 10 */
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 9), 0);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 10), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 19), 8);
    far_end_change(&h, 0, 20, 8); /* a multiple: published at its own end */
    far_end_change(&h, 0, 21, 8); /* at 30 */
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 19), 8);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 20), 16);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 29), 16);
    CU_ASSERT_EQUAL(far_end_value(&h, 0, 30), 24);
    CU_ASSERT_EQUAL(far_end_current(&h, 0), 24);
    far_end_free(&h);
}

int test_far_end_register(void)
{
    static const struct test_case cases[] = {
        {"history: a change seen from the end of its cycle, the past kept",
         test_history_every_cycle},
        {"history: published every T cycles", test_history_published},
    };
    return test_add_suite("far_end", NULL, NULL, cases, sizeof cases / sizeof cases[0]);
}
