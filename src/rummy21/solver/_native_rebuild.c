/* Rebuilding an arrangement in C: the native twin of core.rebuild_groups.
 *
 * Included by _native.c (one translation unit: everything here is static). core.py is the
 * reference: the same back-pointers are followed from the final state to the first layer,
 * and the same moves are replayed with concrete runs of cards, so the groups come out the
 * same, in the same order, with the same cards in the same places (-1 for a joker's place).
 *
 * The runs are kept in an array of the call's own; each suit keeps, by run class, a stack of
 * run numbers (a move takes its runs from the top, as the twin pops its lists).
 */

#define RB_POSITIONS POSITIONS /* a sweep's positions: Ace low, 2 .. K, Ace high, the close */
#define RB_RUNS_MOST 512 /* runs begun in one rebuild (one a card at most, bought ones too) */
#define RB_STACK 64      /* open runs of one class in one suit */
#define RB_RUN_LONGEST 64

/* Group codes: core.PURE_RUN .. core.TUNNELA as RB_PURE_RUN .. RB_TUNNELA (_native_tables.h). */

typedef struct {
    int n;
    int8_t card[RB_RUN_LONGEST]; /* card indices, -1 for a joker's place */
} RbRun;

typedef struct {
    RbRun *runs;
    int n_runs;
    int stack[4][CLASSES][RB_STACK];
    int depth[4][CLASSES];
    PyObject *groups, *loose, *spare; /* lists */
} Rebuild;

static int
rb_fail(const char *why)
{
    PyErr_Format(PyExc_ValueError, "cannot rebuild the arrangement: %s", why);
    return -1;
}

/* The entry of ``key`` with joker balance ``balance`` in the stage ``obj`` (core.back_of). */
static Entry *
rb_entry(PyObject *obj, u128 key, long balance)
{
    StageObject *stage = as_stage(obj);
    return stage ? entry_of(stage, key, balance) : NULL;
}

static int
rb_append(PyObject *list, long card, long times)
{
    PyObject *item = PyLong_FromLong(card);
    if (!item)
        return -1;
    int bad = 0;
    for (long i = 0; i < times && !bad; i++)
        bad = PyList_Append(list, item) < 0;
    Py_DECREF(item);
    return bad ? -1 : 0;
}

static int
rb_group(Rebuild *rb, int kind, const int8_t *cards, int n)
{
    PyObject *members = PyTuple_New(n);
    if (!members)
        return -1;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(members, i, PyLong_FromLong(cards[i])); /* (small ints: never NULL) */
    PyObject *group = Py_BuildValue("(iN)", kind, members);
    if (!group)
        return -1;
    int bad = PyList_Append(rb->groups, group) < 0;
    Py_DECREF(group);
    return bad ? -1 : 0;
}

static int
rb_pop(Rebuild *rb, int s, int k)
{
    if (rb->depth[s][k] == 0)
        return rb_fail("a move takes a run its suit does not have");
    return rb->stack[s][k][--rb->depth[s][k]];
}

static int
rb_push(int stack[CLASSES][RB_STACK], int depth[CLASSES], int k, int run)
{
    if (depth[k] == RB_STACK)
        return rb_fail("too many open runs");
    stack[k][depth[k]++] = run;
    return 0;
}

static int
rb_extend(RbRun *run, int card, int times)
{
    if (run->n + times > RB_RUN_LONGEST)
        return rb_fail("a run too long");
    for (int i = 0; i < times; i++)
        run->card[run->n++] = (int8_t)card;
    return 0;
}

/* A move's field ``i`` as a small int. */
static int
rb_field(PyObject *move, Py_ssize_t i, long high, long *out)
{
    return small_int(PyTuple_GET_ITEM(move, i), 0, high, "a move's count", out);
}

/* core._replay: suit ``s``'s open runs after ``move`` at a position holding ``card``. */
static int
rb_replay(Rebuild *rb, int s, PyObject *move, int card, int phase, int forgot)
{
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 11)
        return rb_fail("a suit move is a tuple of 11");
    PyObject *by_class = PyTuple_GET_ITEM(move, 5);
    if (!PyTuple_Check(by_class) || PyTuple_GET_SIZE(by_class) != CLASSES)
        return rb_fail("a move's runs: one triple a class");
    long extra, new_runs;
    if (rb_field(move, 10, RB_RUN_LONGEST, &extra) < 0 || rb_field(move, 6, RB_STACK, &new_runs) < 0)
        return -1;
    int moved[CLASSES][RB_STACK], depth[CLASSES] = {0};
    for (int k = 0; k < CLASSES; k++) {
        PyObject *triple = PyTuple_GET_ITEM(by_class, k);
        if (!PyTuple_Check(triple) || PyTuple_GET_SIZE(triple) != 3)
            return rb_fail("a move's runs: one triple a class");
        long counts[3];
        for (int j = 0; j < 3; j++) {
            if (small_int(PyTuple_GET_ITEM(triple, j), 0, RB_STACK, "a move's count", &counts[j]) < 0)
                return -1;
        }
        for (long i = 0; i < counts[0]; i++) { /* naturals */
            int id = rb_pop(rb, s, k);
            if (id < 0 || rb_extend(&rb->runs[id], card, 1) < 0 ||
                rb_push(moved, depth, NEXT_CLASS[phase][1][k], id) < 0)
                return -1;
        }
        for (long i = 0; i < counts[1]; i++) { /* jokers */
            int id = rb_pop(rb, s, k);
            if (id < 0 || rb_extend(&rb->runs[id], -1, 1) < 0 ||
                rb_push(moved, depth, NEXT_CLASS[phase][0][k], id) < 0)
                return -1;
        }
        for (long i = 0; i < counts[2]; i++) { /* ends */
            int id = rb_pop(rb, s, k);
            if (id < 0)
                return -1;
            RbRun *run = &rb->runs[id];
            if (run->n < 3) {
                if (rb_extend(run, -1, 3 - run->n + (int)extra) < 0)
                    return -1;
                extra = 0;
            }
            int impure = 0;
            for (int j = 0; j < run->n; j++)
                impure = impure || run->card[j] < 0;
            if (rb_group(rb, impure ? RB_IMPURE_RUN : RB_PURE_RUN, run->card, run->n) < 0)
                return -1;
        }
    }
    if (forgot) { /* the sweep forgot purity here: so do we */
        for (int k = 0; k < CLASSES; k++) {
            if (IMPURE_OF[k] < 0)
                continue;
            for (int i = 0; i < depth[k]; i++) {
                if (rb_push(moved, depth, IMPURE_OF[k], moved[k][i]) < 0)
                    return -1;
            }
            depth[k] = 0;
        }
    }
    for (long i = 0; i < new_runs; i++) {
        if (rb->n_runs == RB_RUNS_MOST)
            return rb_fail("too many runs");
        int id = rb->n_runs++;
        rb->runs[id].n = 0;
        if (rb_extend(&rb->runs[id], card, 1) < 0 || rb_push(moved, depth, RC_P1, id) < 0)
            return -1;
    }
    memcpy(rb->stack[s], moved, sizeof(moved));
    memcpy(rb->depth[s], depth, sizeof(depth));
    return 0;
}

/* A position's pool split into sets and loose cards (``split`` is a pools.PoolSplit). */
static int
rb_split(Rebuild *rb, PyObject *split, int rank)
{
    PyObject *sets = PyObject_GetAttrString(split, "sets");
    PyObject *loose = sets ? PyObject_GetAttrString(split, "loose") : NULL;
    int bad = !loose;
    if (!bad && (!PyTuple_Check(sets) || !PyTuple_Check(loose) || PyTuple_GET_SIZE(loose) != 4))
        bad = rb_fail("a pool split has sets and four loose counts") < 0;
    for (Py_ssize_t i = 0; !bad && i < PyTuple_GET_SIZE(sets); i++) {
        PyObject *a_set = PyTuple_GET_ITEM(sets, i);
        if (!PyTuple_Check(a_set) || PyTuple_GET_SIZE(a_set) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(a_set, 0))) {
            bad = rb_fail("a set is (suits, jokers)") < 0;
            break;
        }
        PyObject *suits = PyTuple_GET_ITEM(a_set, 0);
        Py_ssize_t n = PyTuple_GET_SIZE(suits);
        long jokers;
        if (n > 4 || small_int(PyTuple_GET_ITEM(a_set, 1), 0, 12, "a set's jokers", &jokers) < 0) {
            bad = 1;
            if (!PyErr_Occurred())
                rb_fail("a set of more than four suits");
            break;
        }
        int8_t members[16];
        for (Py_ssize_t j = 0; j < n && !bad; j++) {
            long s;
            bad = small_int(PyTuple_GET_ITEM(suits, j), 0, 3, "a set's suit", &s) < 0;
            if (!bad)
                members[j] = (int8_t)(s * 13 + rank - 1);
        }
        for (long j = 0; j < jokers && !bad; j++)
            members[n + j] = -1;
        bad = bad || rb_group(rb, RB_SET, members, (int)(n + jokers)) < 0;
    }
    for (int s = 0; s < 4 && !bad; s++) {
        long n;
        bad = small_int(PyTuple_GET_ITEM(loose, s), 0, 3, "a pool's loose copies", &n) < 0 ||
              rb_append(rb->loose, s * 13 + rank - 1, n) < 0;
    }
    Py_XDECREF(sets);
    Py_XDECREF(loose);
    return bad ? -1 : 0;
}

/* core.rebuild_groups(layers, stages, key, balance, need) */
static PyObject *
rebuild_groups(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "rebuild_groups(layers, stages, key, balance, need)");
        return NULL;
    }
    u128 key;
    long balance, need;
    if (to_u128(args[2], &key) < 0 || small_int(args[3], -BIG, BIG, "balance", &balance) < 0 ||
        small_int(args[4], 0, 63, "need", &need) < 0)
        return NULL;
    PyObject *layers = PySequence_Fast(args[0], "layers: a sequence of stages");
    PyObject *stages = layers ? PySequence_Fast(args[1], "stages: a sequence by position") : NULL;
    Rebuild rb = {0};
    PyObject *out = NULL;
    if (!stages)
        goto done;
    Py_ssize_t positions = PySequence_Fast_GET_SIZE(layers) - 1;
    if (positions < 0 || positions > RB_POSITIONS || PySequence_Fast_GET_SIZE(stages) < positions) {
        rb_fail("a sweep has one layer more than positions, and at most 15 positions");
        goto done;
    }
    /* The path, from the last position back. */
    PyObject *splits[RB_POSITIONS + 1], *moves[RB_POSITIONS + 1][4];
    int forgot[RB_POSITIONS + 1];
    for (Py_ssize_t p = positions; p >= 1; p--) {
        forgot[p] = (long)(key >> AT_PURE & PURE_MASK) >= need;
        Entry *e = rb_entry(PySequence_Fast_GET_ITEM(layers, p), key, balance);
        if (!e)
            goto done;
        if (e->flags & START) {
            rb_fail("a layer's back-pointer is a start");
            goto done;
        }
        u128 pkey = e->prev_key;
        long pbalance = e->prev_balance;
        splits[p] = e->obj;
        PyObject *row = PySequence_Fast_GET_ITEM(stages, p - 1);
        if (!PyList_Check(row) && !PyTuple_Check(row)) {
            rb_fail("a position's stages: a list of five");
            goto done;
        }
        if (PySequence_Fast_GET_SIZE(row) != 5) {
            rb_fail("a position's stages: a list of five");
            goto done;
        }
        for (int s = 3; s >= 0; s--) {
            PyObject *stage = PySequence_Fast_GET_ITEM(row, s + 1);
            moves[p][s] = NULL;
            if (stage == Py_None) /* the suit had nothing to do */
                continue;
            e = rb_entry(stage, pkey, pbalance);
            if (!e)
                goto done;
            if (e->flags & START) {
                rb_fail("a suit's back-pointer is a start");
                goto done;
            }
            pkey = e->prev_key;
            pbalance = e->prev_balance;
            moves[p][s] = e->obj;
        }
        key = pkey & LAYER_BITS;
        balance = pbalance;
    }
    Entry *first = rb_entry(PySequence_Fast_GET_ITEM(layers, 0), key, balance);
    if (!first)
        goto done;
    if (!(first->flags & START)) {
        rb_fail("the first layer's back-pointer is not a start");
        goto done;
    }
    /* The moves replayed, from the first position on. */
    rb.runs = PyMem_Malloc(sizeof(RbRun) * RB_RUNS_MOST);
    rb.groups = PyList_New(0);
    rb.loose = PyList_New(0);
    rb.spare = PyList_New(0);
    if (!rb.runs || !rb.groups || !rb.loose || !rb.spare) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    PyObject *no_sets = setless_set.owner ? PyTuple_GET_ITEM(setless_set.owner, 0) : NULL;
    for (Py_ssize_t p = 1; p <= positions; p++) {
        int rank = p <= 13 ? (int)p : 1;
        int phase = p == 1 ? PH_FIRST : p == 3 ? PH_LOWMARK : p == 14 ? PH_LAST : p == 15 ? PH_CLOSE : PH_MID;
        for (int s = 0; s < 4; s++) {
            PyObject *move = moves[p][s];
            if (!move)
                continue;
            int card = s * 13 + rank - 1;
            long as_jokers;
            if (rb_replay(&rb, s, move, card, phase, forgot[p]) < 0 || rb_field(move, 9, 3, &as_jokers) < 0)
                goto done;
            int tunnela = PyObject_IsTrue(PyTuple_GET_ITEM(move, 7));
            int8_t three[3] = {(int8_t)card, (int8_t)card, (int8_t)card};
            if (tunnela < 0 || (tunnela && rb_group(&rb, RB_TUNNELA, three, 3) < 0) ||
                rb_append(rb.spare, card, as_jokers) < 0)
                goto done;
        }
        if (splits[p] == no_sets) { /* the moves counted the pool loose */
            for (int s = 0; s < 4; s++) {
                long pool;
                if (moves[p][s] && (rb_field(moves[p][s], 1, 3, &pool) < 0 ||
                                    rb_append(rb.loose, s * 13 + rank - 1, pool) < 0))
                    goto done;
            }
        }
        else if (rb_split(&rb, splits[p], rank) < 0) {
            goto done;
        }
    }
    out = Py_BuildValue("(OOOO)", first->obj, rb.groups, rb.loose, rb.spare);
done:
    PyMem_Free(rb.runs);
    Py_XDECREF(rb.groups);
    Py_XDECREF(rb.loose);
    Py_XDECREF(rb.spare);
    Py_XDECREF(layers);
    Py_XDECREF(stages);
    return out;
}
