/* The native twin of rummy21/solver/core.py: the hot path of the solver's sweep in C.
 *
 * core.py is the reference: every function here does what the function of the same name
 * does there, state for state, entry for entry and in the same order (the tests run the
 * cross-check against both cores). What differs is only how a stage is held: here a Stage
 * is an insertion-ordered hash map from a packed state (a 128-bit number) to its entries,
 * each a (joker balance, loose points, back-pointer) triple, instead of a dict of lists of
 * tuples. A Stage reads like a read-only mapping (stage[key] -> [(balance, cost, back)]),
 * which is all that rebuilding an arrangement needs.
 *
 * What the rules and the Python twin define — the card kinds and their face points, the layout
 * of a packed state, the run classes, phases and roles and runs.py's tables that a suit's move
 * rows are worked out from here (the twin of moves.sweep_moves: see "move rows"), the group
 * codes — is in _native_tables.h, which setup.py writes from the Python definitions before
 * each compile (rummy21.solver._native_tables): each stays defined once. What it is told at
 * run time, once, by configure() (core.configure_native): the Python classes the pool splits
 * are made of, which stay defined once, in Python, and are memoised there.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

/* ------------------------------------------------------------------ configuration */

#include "_native_tables.h"

/* What the code below assumes of the tables (the Python side checks them too, in words:
 * rummy21.solver._native_tables.check). */
_Static_assert(CARD_KINDS == 53 && JOKER_KIND == SUITS * RANKS && SUITS == 4 && RANKS == 13,
               "53 card kinds: 4 suits of 13, then the printed joker");
_Static_assert(SLOTS == CLASSES + 1 && RC_HIGH == CLASSES, "a state's slots: its run classes, then the Aces");
_Static_assert(SUIT_MASK >> 63 == 0 && PURE_MASK <= 63 && OWED_MASK <= 1023 && BOUGHT_MASK <= 127,
               "a packed state's fields are as wide as the core allows");

static int configured = 0;

/* ------------------------------------------------------------------ 128-bit ints */

static int
to_u128(PyObject *obj, u128 *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "a packed state is an int, not %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    unsigned char bytes[16];
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(obj, bytes, 16,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (n < 0)
        return -1;
    if (n > 16) {
        PyErr_SetString(PyExc_OverflowError, "a packed state has at most 128 bits");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)obj, bytes, 16, 1, 0) < 0)
        return -1;
#endif
    u128 value = 0;
    for (int i = 15; i >= 0; i--)
        value = value << 8 | bytes[i];
    *out = value;
    return 0;
}

static PyObject *
from_u128(u128 value)
{
    uint64_t high = (uint64_t)(value >> 64), low = (uint64_t)value;
    if (high == 0)
        return PyLong_FromUnsignedLongLong(low);
    PyObject *h = PyLong_FromUnsignedLongLong(high);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *l = PyLong_FromUnsignedLongLong(low);
    PyObject *shifted = (h && shift) ? PyNumber_Lshift(h, shift) : NULL;
    PyObject *out = (shifted && l) ? PyNumber_Or(shifted, l) : NULL;
    Py_XDECREF(h);
    Py_XDECREF(shift);
    Py_XDECREF(l);
    Py_XDECREF(shifted);
    return out;
}

/* A small int read from a Python object, within [low, high]. */
static int
small_int(PyObject *obj, long low, long high, const char *what, long *out)
{
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s is %ld, outside %ld..%ld", what, value, low, high);
        return -1;
    }
    *out = value;
    return 0;
}

/* ------------------------------------------------------------------ stages */

#define START 1 /* the entry's back is a Start (the first layer), kept as it is */

typedef struct {
    u128 prev_key;     /* the packed state before */
    int32_t balance;   /* jokers demanded minus joker cards supplied */
    int32_t cost;      /* loose points */
    int32_t prev_balance;
    int32_t flags;
    PyObject *obj;     /* owned: the suit move, pool split or Start taken */
} Entry;

typedef struct {
    u128 key;
    Entry *more; /* all entries when there are more than one (in the stage's blocks), else NULL */
    int32_t n, cap;
    Entry first;
} Slot;

/* Where a stage's ``more`` arrays live: blocks it only ever adds to (an array outgrown is
 * left behind) and frees all at once with the stage. Most states have one or two entries:
 * one allocation a block instead of one (and a free) a state. */
typedef struct Block {
    struct Block *next;
    size_t used, cap;
    Entry data[];
} Block;

#define BLOCK_FIRST 256     /* entries in a stage's first block */
#define BLOCK_MOST (1 << 16) /* the most entries a block holds (past that, a block each) */

typedef struct {
    PyObject_HEAD
    Slot *slots;
    Py_ssize_t n, cap;
    int32_t *index; /* open addressing: slot numbers, -1 where empty */
    size_t mask;    /* index size - 1 (a power of two) */
    Block *blocks;  /* the newest first */
} StageObject;

static PyTypeObject StageType;

static inline Entry *
entries_of(Slot *slot)
{
    return slot->more ? slot->more : &slot->first;
}

static inline size_t
hash_key(u128 key)
{
    uint64_t h = (uint64_t)key ^ ((uint64_t)(key >> 64) * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return (size_t)h;
}

static StageObject *
stage_new(Py_ssize_t expect)
{
    StageObject *st = PyObject_New(StageObject, &StageType);
    if (!st)
        return NULL;
    Py_ssize_t cap = expect < 8 ? 8 : expect;
    size_t size = 16;
    while (size < (size_t)cap * 2)
        size <<= 1;
    st->slots = PyMem_Malloc(sizeof(Slot) * cap);
    st->index = PyMem_Malloc(sizeof(int32_t) * size);
    st->blocks = NULL;
    st->n = 0;
    st->cap = cap;
    st->mask = size - 1;
    if (!st->slots || !st->index) {
        PyMem_Free(st->slots);
        PyMem_Free(st->index);
        st->slots = NULL;
        st->index = NULL;
        Py_DECREF(st);
        PyErr_NoMemory();
        return NULL;
    }
    memset(st->index, 0xff, sizeof(int32_t) * size);
    return st;
}

static void
stage_dealloc(StageObject *st)
{
    if (st->slots) {
        for (Py_ssize_t i = 0; i < st->n; i++) {
            Slot *slot = &st->slots[i];
            Entry *e = entries_of(slot);
            for (int32_t j = 0; j < slot->n; j++)
                Py_XDECREF(e[j].obj);
        }
    }
    while (st->blocks) {
        Block *next = st->blocks->next;
        PyMem_Free(st->blocks);
        st->blocks = next;
    }
    PyMem_Free(st->slots);
    PyMem_Free(st->index);
    PyObject_Free(st);
}

static Py_ssize_t
stage_find(StageObject *st, u128 key)
{
    size_t i = hash_key(key) & st->mask;
    for (;;) {
        int32_t at = st->index[i];
        if (at < 0)
            return -1;
        if (st->slots[at].key == key)
            return at;
        i = (i + 1) & st->mask;
    }
}

static int
stage_grow_index(StageObject *st)
{
    size_t size = (st->mask + 1) * 2;
    int32_t *index = PyMem_Malloc(sizeof(int32_t) * size);
    if (!index) {
        PyErr_NoMemory();
        return -1;
    }
    memset(index, 0xff, sizeof(int32_t) * size);
    for (Py_ssize_t at = 0; at < st->n; at++) {
        size_t i = hash_key(st->slots[at].key) & (size - 1);
        while (index[i] >= 0)
            i = (i + 1) & (size - 1);
        index[i] = (int32_t)at;
    }
    PyMem_Free(st->index);
    st->index = index;
    st->mask = size - 1;
    return 0;
}

/* The slot of ``key``, made (with no entries) if the stage has none yet; -1 on error. */
static Py_ssize_t
stage_slot(StageObject *st, u128 key)
{
    size_t i = hash_key(key) & st->mask;
    for (;;) {
        int32_t at = st->index[i];
        if (at < 0)
            break;
        if (st->slots[at].key == key)
            return at;
        i = (i + 1) & st->mask;
    }
    if (st->n >= INT32_MAX - 1) {
        PyErr_SetString(PyExc_MemoryError, "a stage holds at most 2**31 states");
        return -1;
    }
    if (st->n == st->cap) {
        Py_ssize_t cap = st->cap * 2;
        Slot *slots = PyMem_Realloc(st->slots, sizeof(Slot) * cap);
        if (!slots) {
            PyErr_NoMemory();
            return -1;
        }
        st->slots = slots;
        st->cap = cap;
    }
    Py_ssize_t at = st->n++;
    Slot *slot = &st->slots[at];
    slot->key = key;
    slot->more = NULL;
    slot->n = 0;
    slot->cap = 1;
    st->index[i] = (int32_t)at;
    if ((size_t)st->n * 2 > st->mask + 1 && stage_grow_index(st) < 0)
        return -1;
    return at;
}

/* Room for ``n`` entries in the stage's blocks; NULL (MemoryError) if none can be had. */
static Entry *
stage_entries(StageObject *st, int32_t n)
{
    Block *block = st->blocks;
    if (!block || block->cap - block->used < (size_t)n) {
        size_t cap = block ? block->cap * 2 : BLOCK_FIRST;
        if (cap > BLOCK_MOST)
            cap = BLOCK_MOST;
        if (cap < (size_t)n)
            cap = (size_t)n;
        Block *more = PyMem_Malloc(sizeof(Block) + sizeof(Entry) * cap);
        if (!more) {
            PyErr_NoMemory();
            return NULL;
        }
        more->next = block;
        more->used = 0;
        more->cap = cap;
        st->blocks = block = more;
    }
    Entry *out = block->data + block->used;
    block->used += (size_t)n;
    return out;
}

/* Add an entry to one of ``st``'s slots (a slot keeps its first entry in place; with more,
 * all of them in an array of the stage's blocks, moved to one twice as long when full). */
static int
slot_append(StageObject *st, Slot *slot, const Entry *entry)
{
    if (slot->n == 0 && !slot->more) {
        slot->first = *entry;
        slot->n = 1;
        return 0;
    }
    if (!slot->more) {
        Entry *more = stage_entries(st, 4);
        if (!more)
            return -1;
        more[0] = slot->first;
        slot->more = more;
        slot->cap = 4;
    }
    else if (slot->n == slot->cap) {
        Entry *more = stage_entries(st, slot->cap * 2);
        if (!more)
            return -1;
        memcpy(more, slot->more, sizeof(Entry) * (size_t)slot->n);
        slot->more = more;
        slot->cap *= 2;
    }
    slot->more[slot->n++] = *entry;
    return 0;
}

/* core.insert: add an entry unless another of the same state beats it; drop those it beats.
 * The entry's object is borrowed; the stage takes its own reference when it keeps it. */
static int
insert(StageObject *st, Slot *slot, Entry *entry, int exact)
{
    Entry *e = entries_of(slot);
    int32_t n = slot->n;
    if (n == 0) {
        Py_INCREF(entry->obj);
        return slot_append(st, slot, entry);
    }
    int32_t balance = entry->balance, cost = entry->cost;
    if (exact) {
        for (int32_t i = 0; i < n; i++) {
            if (e[i].balance == balance) {
                if (cost < e[i].cost) {
                    Py_INCREF(entry->obj);
                    Py_DECREF(e[i].obj);
                    e[i] = *entry;
                }
                return 0;
            }
        }
        Py_INCREF(entry->obj);
        return slot_append(st, slot, entry);
    }
    int beaten = 0;
    for (int32_t i = 0; i < n; i++) {
        if (e[i].balance <= balance && e[i].cost <= cost)
            return 0;
        if (balance <= e[i].balance && cost <= e[i].cost)
            beaten = 1;
    }
    if (beaten) {
        int32_t kept = 0;
        for (int32_t i = 0; i < n; i++) {
            if (balance <= e[i].balance && cost <= e[i].cost)
                Py_DECREF(e[i].obj);
            else
                e[kept++] = e[i];
        }
        slot->n = kept; /* (an emptied ``more`` stays in use: entries_of reads it) */
    }
    Py_INCREF(entry->obj);
    return slot_append(st, slot, entry);
}

/* core.drop_dearer_bought: each entry beaten by an entry of the same state with fewer cards
 * bought is dropped (its object released), and the states left with none go; the others keep
 * their order (the index is rebuilt). An entry is kept when no entry of any state with fewer
 * bought beats it, as in the twin: what was dropped from one of those is beaten by an entry
 * of a state with fewer still, which beats this one too. */
static void
drop_dearer_bought(StageObject *st, int exact)
{
    /* Most states have no twin with fewer bought, and looking for one is a cache miss or two
     * a try: a small table first gives, by the hash of a state's other fields, the fewest
     * bought of any state hashed there, and only where that is fewer than a state's own are
     * its twins looked for (a collision only costs the look-ups). */
    size_t size = 64;
    while (size < (size_t)st->n * 4 && size < (1 << 16))
        size <<= 1;
    uint8_t *fewest = PyMem_Malloc(size);
    if (fewest)
        memset(fewest, 0xff, size);
    u128 others = ~((u128)BOUGHT_MASK << AT_BOUGHT);
    for (Py_ssize_t i = 0; fewest && i < st->n; i++) {
        u128 key = st->slots[i].key;
        size_t at = hash_key(key & others) & (size - 1);
        uint8_t bought = (uint8_t)(key >> AT_BOUGHT & BOUGHT_MASK);
        if (bought < fewest[at])
            fewest[at] = bought;
    }
    int emptied = 0;
    for (Py_ssize_t i = 0; i < st->n; i++) {
        Slot *slot = &st->slots[i];
        u128 key = slot->key;
        long bought = (long)(key >> AT_BOUGHT & BOUGHT_MASK);
        if (fewest && fewest[hash_key(key & others) & (size - 1)] >= bought)
            continue; /* (no state like it bought fewer; kept) */
        for (long fewer = 1; fewer <= bought && slot->n; fewer++) {
            Py_ssize_t j = stage_find(st, key - ((u128)fewer << AT_BOUGHT));
            if (j < 0)
                continue;
            Slot *cheaper = &st->slots[j];
            const Entry *better = entries_of(cheaper);
            Entry *e = entries_of(slot);
            int32_t kept = 0;
            for (int32_t k = 0; k < slot->n; k++) {
                int beaten = 0;
                for (int32_t m = 0; m < cheaper->n && !beaten; m++)
                    beaten = (exact ? better[m].balance == e[k].balance : better[m].balance <= e[k].balance) &&
                             better[m].cost <= e[k].cost;
                if (beaten)
                    Py_DECREF(e[k].obj);
                else
                    e[kept++] = e[k];
            }
            slot->n = kept;
        }
        emptied |= slot->n == 0;
    }
    PyMem_Free(fewest);
    if (!emptied)
        return;
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < st->n; i++) {
        if (st->slots[i].n)
            st->slots[n++] = st->slots[i]; /* (an emptied ``more`` stays in the blocks) */
    }
    st->n = n;
    memset(st->index, 0xff, sizeof(int32_t) * (st->mask + 1));
    for (Py_ssize_t at = 0; at < n; at++) {
        size_t i = hash_key(st->slots[at].key) & st->mask;
        while (st->index[i] >= 0)
            i = (i + 1) & st->mask;
        st->index[i] = (int32_t)at;
    }
}

/* ------------------------------------------------------------------ Stage as a mapping */

static PyObject *
entry_tuple(const Entry *e)
{
    PyObject *back;
    if (e->flags & START) {
        back = Py_NewRef(e->obj);
    }
    else {
        PyObject *prev = from_u128(e->prev_key);
        if (!prev)
            return NULL;
        back = Py_BuildValue("(NiO)", prev, (int)e->prev_balance, e->obj);
        if (!back)
            return NULL;
    }
    return Py_BuildValue("(iiN)", (int)e->balance, (int)e->cost, back);
}

static PyObject *
slot_list(Slot *slot)
{
    PyObject *out = PyList_New(slot->n);
    if (!out)
        return NULL;
    Entry *e = entries_of(slot);
    for (int32_t i = 0; i < slot->n; i++) {
        PyObject *t = entry_tuple(&e[i]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static Py_ssize_t
stage_len(StageObject *st)
{
    return st->n;
}

static PyObject *
stage_getitem(StageObject *st, PyObject *key)
{
    u128 k;
    if (to_u128(key, &k) < 0) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetObject(PyExc_KeyError, key);
        }
        return NULL;
    }
    Py_ssize_t at = stage_find(st, k);
    if (at < 0) {
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    return slot_list(&st->slots[at]);
}

static int
stage_contains(StageObject *st, PyObject *key)
{
    u128 k;
    if (to_u128(key, &k) < 0) {
        PyErr_Clear();
        return 0;
    }
    return stage_find(st, k) >= 0;
}

static PyObject *
stage_keys(StageObject *st, PyObject *Py_UNUSED(ignored))
{
    PyObject *out = PyList_New(st->n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < st->n; i++) {
        PyObject *k = from_u128(st->slots[i].key);
        if (!k) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, k);
    }
    return out;
}

static PyObject *
stage_items(StageObject *st, PyObject *Py_UNUSED(ignored))
{
    PyObject *out = PyList_New(st->n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < st->n; i++) {
        PyObject *k = from_u128(st->slots[i].key);
        PyObject *v = k ? slot_list(&st->slots[i]) : NULL;
        PyObject *pair = v ? PyTuple_Pack(2, k, v) : NULL;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (!pair) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, pair);
    }
    return out;
}

static PyObject *
stage_values(StageObject *st, PyObject *Py_UNUSED(ignored))
{
    PyObject *out = PyList_New(st->n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < st->n; i++) {
        PyObject *v = slot_list(&st->slots[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *
stage_get(StageObject *st, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "get(key, default=None)");
        return NULL;
    }
    u128 k;
    Py_ssize_t at = -1;
    if (to_u128(args[0], &k) == 0)
        at = stage_find(st, k);
    else
        PyErr_Clear();
    if (at < 0)
        return Py_NewRef(nargs == 2 ? args[1] : Py_None);
    return slot_list(&st->slots[at]);
}

static PyObject *
stage_iter(StageObject *st)
{
    PyObject *keys = stage_keys(st, NULL);
    if (!keys)
        return NULL;
    PyObject *it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    return it;
}

static PyObject *
stage_repr(StageObject *st)
{
    return PyUnicode_FromFormat("<Stage of %zd states>", st->n);
}

static PyMappingMethods stage_as_mapping = {
    .mp_length = (lenfunc)stage_len,
    .mp_subscript = (binaryfunc)stage_getitem,
};

static PySequenceMethods stage_as_sequence = {
    .sq_contains = (objobjproc)stage_contains,
};

static PyMethodDef stage_methods[] = {
    {"keys", (PyCFunction)stage_keys, METH_NOARGS, "The packed states, in the order they were reached."},
    {"items", (PyCFunction)stage_items, METH_NOARGS, "(state, entries) pairs, in order."},
    {"values", (PyCFunction)stage_values, METH_NOARGS, "The entries of each state, in order."},
    {"get", (PyCFunction)(void (*)(void))stage_get, METH_FASTCALL, "The entries of a state, or the default."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StageType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rummy21.solver._native.Stage",
    .tp_doc = PyDoc_STR("A stage of a sweep: packed states and their entries, a read-only mapping."),
    .tp_basicsize = sizeof(StageObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)stage_dealloc,
    .tp_as_mapping = &stage_as_mapping,
    .tp_as_sequence = &stage_as_sequence,
    .tp_iter = (getiterfunc)stage_iter,
    .tp_methods = stage_methods,
    .tp_repr = (reprfunc)stage_repr,
};

/* ------------------------------------------------------------------ move rows */

/* The twin of moves.sweep_moves, and of moves.suit_moves under it: what one suit does at one
 * position, as the sweep adds it to a packed state. moves.py holds the rules and stays the
 * reference (the core's Python twin uses it, and the tests compare the two on every state a
 * sweep meets); each function here names the one it mirrors, and follows it loop for loop, so
 * that the rows come out the same and in the same order. What the rules name — the run
 * classes, the fields of a suit's state, the phases, the roles, and runs.py's tables of where
 * a run goes next, its padding, which classes end pure — is told by configure(). */

/* The tables these read, from _native_tables.h: SLOTS (runs.SLOTS: a count for each run
 * class, then the Aces set aside), CLASSES and the RC_ run classes (runs.RunClass; RUN_ORDER:
 * runs.RUN_CLASSES, in the order the moves go through them), STATE_AT and STATE_WIDTH
 * (runs._AT and runs._WIDTH, by slot), PURE_FIELDS (the fields runs.forget_purity empties),
 * NEXT_CLASS (runs.NEXT_CLASSES: by phase, natural, class), PADDING_OF (runs.PADDING, 0 where
 * it has none), PURE_END_OF (runs.PURE_END), IMPURE_OF (runs.IMPURE_OF, -1 where it has
 * none), the PH_ phases (runs.Phase) and the R_ roles (moves.Role). */

/* runs.decode */
static inline int
count_at(uint64_t code, int slot)
{
    return (int)(code >> STATE_AT[slot] & ((1u << STATE_WIDTH[slot]) - 1));
}

static void
decode(uint64_t code, int state[SLOTS])
{
    for (int slot = 0; slot < SLOTS; slot++)
        state[slot] = count_at(code, slot);
}

/* runs.encode (an OverflowError as there, for a count its field cannot hold) */
static int
encode(const int state[SLOTS], uint64_t *out)
{
    uint64_t code = 0;
    for (int slot = 0; slot < SLOTS; slot++) {
        int n = state[slot];
        if (n < 0 || n >= 1 << STATE_WIDTH[slot]) {
            PyErr_Format(PyExc_OverflowError, "a suit state holds %d in slot %d", n, slot);
            return -1;
        }
        code |= (uint64_t)n << STATE_AT[slot];
    }
    *out = code;
    return 0;
}

/* runs.forget_purity */
static int
forget_purity(uint64_t code, uint64_t *out)
{
    if (!(code & PURE_FIELDS)) {
        *out = code;
        return 0;
    }
    int state[SLOTS];
    decode(code, state);
    for (int k = 0; k < CLASSES; k++) {
        if (IMPURE_OF[k] >= 0) {
            state[IMPURE_OF[k]] += state[k];
            state[k] = 0;
        }
    }
    return encode(state, out);
}

/* moves.Play */
typedef struct {
    int copies, role, phase, purity, reach, padding;
} Play;

/* moves.Play.only_jokers */
static inline int
only_jokers(const Play *play)
{
    return play->phase != PH_LAST && play->phase != PH_CLOSE &&
           (play->role == R_JOKER_ONLY || (play->role == R_TUNNELA_ONLY && play->copies != 3));
}

/* moves.SuitMove, and the RawMove tuple made of it once a row takes it. */
typedef struct {
    uint64_t state;
    int pool, jokers, pure, extends;
    int moves[CLASSES][3]; /* by run class: naturals, jokers, ends (moves.RunMoves) */
    int new_runs, tunnela, reserve, as_jokers, extra_padding;
    PyObject *obj; /* owned, or NULL until a row takes the move */
} Move;

typedef struct {
    Move *at;
    Py_ssize_t n, cap;
} Moves;

/* moves._RunsMoved */
typedef struct {
    int runs[SLOTS];
    int rest, demand, pure, extends;
    int moves[CLASSES][3];
    int extra;
} RunsMoved;

/* moves._Way */
typedef struct {
    int run_class, naturals, jokers, ends;
    int demand, pure, extends, short_end;
} Way;

static int
moves_push(Moves *out, const Move *move)
{
    if (out->n == out->cap) {
        Py_ssize_t cap = out->cap ? out->cap * 2 : 64;
        Move *at = PyMem_Realloc(out->at, sizeof(Move) * cap);
        if (!at) {
            PyErr_NoMemory();
            return -1;
        }
        out->at = at;
        out->cap = cap;
    }
    out->at[out->n++] = *move;
    return 0;
}

/* moves._grow: the ways to play the copies left once the open runs have moved. */
static int
grow(const Play *play, int high, const RunsMoved *moved, Moves *out)
{
    int role = play->role, phase = play->phase, purity = play->purity;
    Move move = {0};
    move.jokers = moved->demand;
    move.pure = moved->pure;
    move.extends = moved->extends;
    memcpy(move.moves, moved->moves, sizeof(move.moves));
    move.extra_padding = moved->extra;
    if (phase == PH_LAST || phase == PH_CLOSE) {
        if (encode(moved->runs, &move.state) < 0 || (!purity && forget_purity(move.state, &move.state) < 0))
            return -1;
        return moves_push(out, &move);
    }
    int fixed = only_jokers(play) ? play->copies : 0; /* copies that can only be jokers */
    int copies = play->copies - fixed;
    int keeps_aces = phase == PH_FIRST && play->reach == 1 &&
                     (role == R_NATURAL || role == R_EITHER || role == R_PURE_ONLY);
    for (int tunnela = 0; tunnela <= 1; tunnela++) {
        if (tunnela && !(moved->rest == 3 && copies == 3))
            continue;
        int left = moved->rest - 3 * tunnela;
        int starts = role == R_TUNNELA_ONLY ? 0 : left;
        for (int new_runs = 0; new_runs <= starts; new_runs++) {
            int keep = keeps_aces ? left - new_runs : 0;
            for (int reserve = 0; reserve <= keep; reserve++) {
                int free_ = left - new_runs - reserve;
                int lowest = (role == R_PURE_ONLY || role == R_TUNNELA_ONLY) ? free_ : 0;
                int grown[SLOTS];
                memcpy(grown, moved->runs, sizeof(grown));
                grown[RC_P1] += new_runs;
                grown[RC_HIGH] = high + reserve;
                uint64_t state;
                if (encode(grown, &state) < 0 || (!purity && forget_purity(state, &state) < 0))
                    return -1;
                int most = role != R_NATURAL ? free_ : 0;
                for (int as_jokers = lowest; as_jokers <= most; as_jokers++) {
                    move.state = state;
                    move.pool = free_ - as_jokers;
                    move.jokers = moved->demand - as_jokers - fixed;
                    move.pure = moved->pure + tunnela;
                    move.new_runs = new_runs;
                    move.tunnela = tunnela;
                    move.reserve = reserve;
                    move.as_jokers = as_jokers + fixed;
                    if (moves_push(out, &move) < 0)
                        return -1;
                }
            }
        }
    }
    return 0;
}

/* moves._ways (with moves._compositions): each way the ``n`` open runs of class ``k`` can go,
 * into ``ways``, which has room for (n + 1)(n + 2) / 2 of them; returns how many. */
static int
ways_of(int k, int n, const Play *play, Way *ways)
{
    int phase = play->phase, role = play->role, reach = play->reach;
    int later = reach == 1;
    int bridging = k == RC_P1 || k == RC_P2 || k == RC_I2; /* the classes of ``bridges`` */
    int bridges = k == RC_P1 ? reach <= 3 : reach <= 2;
    int complete = k == RC_P3 || k == RC_I3 || k == RC_LP3 || k == RC_LI3;
    int allowed[3] = {1, 1, 1};
    if (phase == PH_CLOSE || (phase == PH_LAST && (k == RC_LP3 || k == RC_LI3)))
        allowed[0] = allowed[1] = 0;
    else if (role == R_TUNNELA_ONLY && phase != PH_LAST)
        allowed[0] = 0;
    else if (role == R_PURE_ONLY && phase != PH_LAST && (k == RC_I2 || k == RC_I3 || k == RC_LI3))
        allowed[0] = 0; /* a joker card continues only pure runs as itself */
    int count = 0;
    for (int a = 0; a <= n; a++) {
        for (int b = 0; b <= n - a; b++) {
            int e = n - a - b;
            if ((a && !allowed[0]) || (b && !allowed[1]) || (e && !allowed[2]))
                continue;
            ways[count++] = (Way){
                .run_class = k,
                .naturals = a,
                .jokers = b,
                .ends = e,
                .demand = b + PADDING_OF[k] * e,
                .pure = PURE_END_OF[k] ? e : 0,
                .extends = b && ((complete && !later) || (bridging && !bridges)),
                .short_end = e && (k == RC_P1 || k == RC_P2 || k == RC_I2),
            };
        }
    }
    return count;
}

/* moves.suit_moves: every way one suit can play the copies at a position, given its open
 * runs, appended to ``out`` in their order (itertools.product over the classes' ways: the
 * last class changes fastest). */
static int
suit_moves(uint64_t state, const Play *play, Moves *out)
{
    int runs[SLOTS];
    decode(state, runs);
    int copies = only_jokers(play) ? 0 : play->copies;
    int available = play->phase == PH_LAST ? runs[RC_HIGH] : copies;
    Way *ways[CLASSES];
    int count[CLASSES], lists = 0, status = -1;
    for (int i = 0; i < CLASSES; i++) {
        int k = RUN_ORDER[i], n = runs[k];
        if (!n)
            continue;
        ways[lists] = PyMem_Malloc(sizeof(Way) * (size_t)((n + 1) * (n + 2) / 2));
        if (!ways[lists]) {
            PyErr_NoMemory();
            goto done;
        }
        count[lists] = ways_of(k, n, play, ways[lists]);
        lists++;
    }
    for (int j = 0; j < lists; j++) {
        if (!count[j]) {
            status = 0; /* no way for one class: no move at all */
            goto done;
        }
    }
    int pick[CLASSES] = {0};
    for (;;) {
        int naturals = 0;
        for (int j = 0; j < lists; j++)
            naturals += ways[j][pick[j]].naturals;
        if (!(naturals > available || (play->phase == PH_LAST && naturals != available))) {
            RunsMoved moved;
            memset(&moved, 0, sizeof(moved));
            int demand = 0, short_ends = 0;
            for (int j = 0; j < lists; j++) {
                const Way *way = &ways[j][pick[j]];
                int k = way->run_class;
                moved.moves[k][0] = way->naturals;
                moved.moves[k][1] = way->jokers;
                moved.moves[k][2] = way->ends;
                if (way->naturals)
                    moved.runs[NEXT_CLASS[play->phase][1][k]] += way->naturals;
                if (way->jokers)
                    moved.runs[NEXT_CLASS[play->phase][0][k]] += way->jokers;
                demand += way->demand;
                moved.pure += way->pure;
                moved.extends = moved.extends || way->extends;
                short_ends = short_ends || way->short_end;
            }
            int extends = moved.extends;
            moved.rest = available - naturals;
            for (int extra = 0; extra <= (short_ends ? play->padding : 0); extra++) {
                moved.demand = demand + extra;
                moved.extends = extends || extra > 0;
                moved.extra = extra;
                if (grow(play, runs[RC_HIGH], &moved, out) < 0)
                    goto done;
            }
        }
        int j = lists - 1;
        while (j >= 0 && ++pick[j] == count[j])
            pick[j--] = 0;
        if (j < 0)
            break;
    }
    status = 0;
done:
    for (int j = 0; j < lists; j++)
        PyMem_Free(ways[j]);
    return status;
}

/* Plain tuples of numbers are made untracked by the cycle collector, as it would do itself
 * on its first look at them (see moves.RawMove); the (naturals, jokers, ends) triples of
 * small counts are made once. */
#define TRIPLE_MOST 16
static PyObject *triples[TRIPLE_MOST * TRIPLE_MOST * TRIPLE_MOST];

static PyObject *
plain_tuple(PyObject **items, Py_ssize_t n) /* steals the items (NULL among them: fails) */
{
    PyObject *t = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!items[i])
            goto fail;
    }
    t = PyTuple_New(n);
    if (!t)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, items[i]);
    PyObject_GC_UnTrack(t);
    return t;
fail:
    for (Py_ssize_t i = 0; i < n; i++)
        Py_XDECREF(items[i]);
    return NULL;
}

static PyObject *
triple(const int m[3])
{
    int small = m[0] < TRIPLE_MOST && m[1] < TRIPLE_MOST && m[2] < TRIPLE_MOST;
    size_t at = small ? (size_t)((m[0] * TRIPLE_MOST + m[1]) * TRIPLE_MOST + m[2]) : 0;
    if (small && triples[at])
        return Py_NewRef(triples[at]);
    PyObject *items[3] = {PyLong_FromLong(m[0]), PyLong_FromLong(m[1]), PyLong_FromLong(m[2])};
    PyObject *t = plain_tuple(items, 3);
    if (t && small)
        triples[at] = Py_NewRef(t);
    return t;
}

/* moves._plain_move: the move as a RawMove tuple. */
static PyObject *
raw_move(const Move *m)
{
    PyObject *runs[CLASSES];
    for (int k = 0; k < CLASSES; k++)
        runs[k] = triple(m->moves[k]);
    PyObject *items[11] = {
        PyLong_FromUnsignedLongLong(m->state),
        PyLong_FromLong(m->pool),
        PyLong_FromLong(m->jokers),
        PyLong_FromLong(m->pure),
        PyBool_FromLong(m->extends),
        plain_tuple(runs, CLASSES),
        PyLong_FromLong(m->new_runs),
        PyBool_FromLong(m->tunnela),
        PyLong_FromLong(m->reserve),
        PyLong_FromLong(m->as_jokers),
        PyLong_FromLong(m->extra_padding),
    };
    return plain_tuple(items, 11);
}

/* moves.Place, read once per call, and packed into a key for the cache of rows (41 bits). */
typedef struct {
    int copies, roles[2], phase, reach, padding, exact, next1, next2;
    int has_setless, setless; /* setless is None: has_setless = 0 */
    int buy, replace, aside, bought_starts;
    uint64_t key;
} PlaceC;

#define SETLESS_MOST 1000

static int
place_int(PyObject *place, Py_ssize_t i, long low, long high, const char *what, int *out)
{
    long value;
    if (small_int(PyTuple_GET_ITEM(place, i), low, high, what, &value) < 0)
        return -1;
    *out = (int)value;
    return 0;
}

static int
place_bool(PyObject *place, Py_ssize_t i, int *out)
{
    int b = PyObject_IsTrue(PyTuple_GET_ITEM(place, i));
    if (b < 0)
        return -1;
    *out = b;
    return 0;
}

static int
read_place(PyObject *place, PlaceC *p)
{
    if (!PyTuple_Check(place) || PyTuple_GET_SIZE(place) != 13) {
        PyErr_SetString(PyExc_TypeError, "place: a moves.Place");
        return -1;
    }
    PyObject *roles = PyTuple_GET_ITEM(place, 1), *setless = PyTuple_GET_ITEM(place, 8);
    if (!PyTuple_Check(roles) || PyTuple_GET_SIZE(roles) != 2) {
        PyErr_SetString(PyExc_TypeError, "a place's roles: a pair of moves.Role");
        return -1;
    }
    long role0, role1;
    if (place_int(place, 0, 0, 3, "a place's copies", &p->copies) < 0 ||
        small_int(PyTuple_GET_ITEM(roles, 0), 0, ROLES - 1, "a place's role", &role0) < 0 ||
        small_int(PyTuple_GET_ITEM(roles, 1), 0, ROLES - 1, "a place's role", &role1) < 0 ||
        place_int(place, 2, 0, PHASES - 1, "a place's phase", &p->phase) < 0 ||
        place_int(place, 3, 1, 4, "a place's reach", &p->reach) < 0 ||
        place_int(place, 4, 0, 15, "a place's padding", &p->padding) < 0 || place_bool(place, 5, &p->exact) < 0 ||
        place_int(place, 6, -1, 3, "a place's next1", &p->next1) < 0 ||
        place_int(place, 7, -1, 3, "a place's next2", &p->next2) < 0 ||
        place_int(place, 9, 0, 3, "a place's buy", &p->buy) < 0 || place_bool(place, 10, &p->replace) < 0 ||
        place_bool(place, 11, &p->aside) < 0 || place_bool(place, 12, &p->bought_starts) < 0)
        return -1;
    p->roles[0] = (int)role0;
    p->roles[1] = (int)role1;
    p->has_setless = setless != Py_None;
    p->setless = 0;
    if (p->has_setless && place_int(place, 8, -1, SETLESS_MOST, "a place's setless", &p->setless) < 0)
        return -1;
    uint64_t key = (uint64_t)p->copies;
    key = key << 3 | (uint64_t)p->roles[0];
    key = key << 3 | (uint64_t)p->roles[1];
    key = key << 3 | (uint64_t)p->phase;
    key = key << 3 | (uint64_t)p->reach;
    key = key << 4 | (uint64_t)p->padding;
    key = key << 1 | (uint64_t)p->exact;
    key = key << 3 | (uint64_t)(p->next1 + 1);
    key = key << 3 | (uint64_t)(p->next2 + 1);
    key = key << 1 | (uint64_t)p->has_setless;
    key = key << 10 | (uint64_t)(p->setless + 1);
    key = key << 2 | (uint64_t)p->buy;
    key = key << 1 | (uint64_t)p->replace;
    key = key << 1 | (uint64_t)p->aside;
    key = key << 1 | (uint64_t)p->bought_starts;
    p->key = key;
    return 0;
}

typedef struct {
    u128 adds;    /* step: pure groups, owed jokers, cards bought */
    u128 extends; /* EXTENDS or 0 */
    int64_t change;
    int32_t pool, jokers, owed, loose;
    PyObject *move; /* owned: the RawMove tuple */
} Row;

typedef struct {
    uint64_t place, code; /* the place's key; the suit's state << 1 | purity */
    Row *row;
    Py_ssize_t n, cap;
} RowSet;

static void
rowset_free(RowSet *set)
{
    for (Py_ssize_t i = 0; i < set->n; i++)
        Py_DECREF(set->row[i].move);
    PyMem_Free(set->row);
    PyMem_Free(set);
}

static int
rowset_push(RowSet *set, const Row *row)
{
    if (set->n == set->cap) {
        Py_ssize_t cap = set->cap ? set->cap * 2 : 16;
        Row *at = PyMem_Realloc(set->row, sizeof(Row) * cap);
        if (!at) {
            PyErr_NoMemory();
            return -1;
        }
        set->row = at;
        set->cap = cap;
    }
    set->row[set->n++] = *row;
    Py_INCREF(row->move);
    return 0;
}

/* moves.sweep_moves: the moves of suit_moves as the sweep adds them to a packed state. */
static RowSet *
sweep_rows(const PlaceC *place, uint64_t state, int purity)
{
    RowSet *set = PyMem_Calloc(1, sizeof(RowSet));
    if (!set) {
        PyErr_NoMemory();
        return NULL;
    }
    set->place = place->key;
    set->code = state << 1 | (uint64_t)purity;
    Moves moves = {0};
    int role = place->roles[purity];
    for (int bought = 0; bought <= (role != R_JOKER_ONLY ? place->buy : 0); bought++) {
        Play play = {place->copies + bought, role, place->phase, purity, place->reach, place->padding};
        moves.n = 0;
        if (suit_moves(state, &play, &moves) < 0)
            goto fail;
        for (Py_ssize_t i = 0; i < moves.n; i++) {
            Move *move = &moves.at[i];
            if (move->extends && !place->exact)
                continue;
            if (bought && move->pool + move->as_jokers + move->moves[RC_I2][0] + move->moves[RC_I3][0] +
                                  move->moves[RC_LI3][0] + (place->bought_starts ? 0 : move->new_runs) >
                              place->copies)
                continue; /* (see sweep_moves) */
            if (bought && !purity && !move->tunnela)
                continue;
            int loose = 0;
            if (place->has_setless && move->pool) {
                if (place->setless < 0)
                    continue;
                loose = move->pool * place->setless;
            }
            int after[SLOTS];
            decode(move->state, after);
            int owed = 0;
            int shorts = after[RC_P1] + after[RC_P2] + after[RC_I2];
            if (shorts) {
                int next1 = place->next1 >= 0 ? place->next1 : after[RC_HIGH];
                int next2 = place->next2 >= 0 ? place->next2 : after[RC_HIGH];
                owed = shorts - next1 > 0 ? shorts - next1 : 0;
                if (after[RC_P1])
                    owed += after[RC_P1] - next2 > 0 ? after[RC_P1] - next2 : 0;
            }
            if (!move->obj && !(move->obj = raw_move(move)))
                goto fail;
            u128 step = (u128)move->pure << AT_PURE | (u128)owed << AT_OWED;
            Row row = {
                .adds = step | (u128)bought << AT_BOUGHT,
                .extends = move->extends ? EXTENDS : 0,
                .change = (int64_t)move->state - (int64_t)state,
                .pool = place->has_setless ? 0 : move->pool,
                .jokers = move->jokers + bought - (place->replace ? loose : 0),
                .owed = owed,
                .loose = loose,
                .move = move->obj,
            };
            if (rowset_push(set, &row) < 0)
                goto fail;
            if (place->aside && move->as_jokers) {
                row.adds = step | (u128)1 << AT_BOUGHT;
                row.jokers += 1;
                if (rowset_push(set, &row) < 0)
                    goto fail;
            }
        }
        for (Py_ssize_t i = 0; i < moves.n; i++)
            Py_CLEAR(moves.at[i].obj); /* (the rows hold their own references) */
    }
    PyMem_Free(moves.at);
    return set;
fail:
    for (Py_ssize_t i = 0; i < moves.n; i++)
        Py_CLEAR(moves.at[i].obj);
    PyMem_Free(moves.at);
    rowset_free(set);
    return NULL;
}

/* The rows by (place, state, purity), across calls: an open-addressing table of RowSet
 * pointers (growing it moves no RowSet, which the calls running hold). It is emptied only
 * between calls (when no call is running in any thread: a finaliser run by an allocation may
 * call in), once it holds more than ROWS_MOST sets. */
#define ROWS_MOST (1 << 16)
static RowSet **rows_cache = NULL;
static size_t rows_mask = 0, rows_count = 0;
static int active_calls = 0;
static void trim_caches(void);

static void
rows_clear(void)
{
    if (!rows_cache)
        return;
    for (size_t i = 0; i <= rows_mask; i++) {
        if (rows_cache[i]) {
            rowset_free(rows_cache[i]);
            rows_cache[i] = NULL;
        }
    }
    rows_count = 0;
}

static inline size_t
rows_hash(uint64_t place, uint64_t code)
{
    uint64_t h = (place * 0x9E3779B97F4A7C15ULL) ^ (code + 0x632BE59BD9B4E019ULL);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    return (size_t)h;
}

static RowSet *
rows_find(uint64_t place, uint64_t code)
{
    if (!rows_cache)
        return NULL;
    for (size_t i = rows_hash(place, code) & rows_mask;; i = (i + 1) & rows_mask) {
        RowSet *set = rows_cache[i];
        if (!set)
            return NULL;
        if (set->place == place && set->code == code)
            return set;
    }
}

static int
rows_add(RowSet *set)
{
    if (!rows_cache || (rows_count + 1) * 2 > rows_mask + 1) {
        size_t size = rows_cache ? (rows_mask + 1) * 2 : (1 << 12);
        RowSet **table = PyMem_Calloc(size, sizeof(RowSet *));
        if (!table) {
            PyErr_NoMemory();
            return -1;
        }
        if (rows_cache) {
            for (size_t i = 0; i <= rows_mask; i++) {
                RowSet *old = rows_cache[i];
                if (!old)
                    continue;
                size_t j = rows_hash(old->place, old->code) & (size - 1);
                while (table[j])
                    j = (j + 1) & (size - 1);
                table[j] = old;
            }
            PyMem_Free(rows_cache);
        }
        rows_cache = table;
        rows_mask = size - 1;
    }
    size_t i = rows_hash(set->place, set->code) & rows_mask;
    while (rows_cache[i])
        i = (i + 1) & rows_mask;
    rows_cache[i] = set;
    rows_count++;
    return 0;
}

/* The rows of a suit in ``state`` (purity flag ``purity``) at ``place``: from the table, or
 * worked out and kept there. */
static RowSet *
rows_of(const PlaceC *place, uint64_t state, int purity)
{
    uint64_t code = state << 1 | (uint64_t)purity;
    RowSet *set = rows_find(place->key, code);
    if (set)
        return set;
    set = sweep_rows(place, state, purity);
    if (!set)
        return NULL;
    RowSet *meanwhile = rows_find(place->key, code); /* (added by a call a finaliser made) */
    if (meanwhile) {
        rowset_free(set);
        return meanwhile;
    }
    if (rows_add(set) < 0) {
        rowset_free(set);
        return NULL;
    }
    return set;
}

/* The rows as moves.sweep_moves returns them (a tuple of SweepRow tuples). */
static PyObject *
rows_tuple(const RowSet *set)
{
    PyObject *out = PyTuple_New(set->n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < set->n; i++) {
        const Row *r = &set->row[i];
        PyObject *items[8] = {
            PyLong_FromLongLong(r->change), PyLong_FromLong(r->pool),   from_u128(r->adds),
            from_u128(r->extends),          PyLong_FromLong(r->jokers), PyLong_FromLong(r->owed),
            PyLong_FromLong(r->loose),      Py_NewRef(r->move),
        };
        int made = 1;
        for (int j = 0; j < 8; j++)
            made = made && items[j];
        PyObject *row = made ? PyTuple_New(8) : NULL;
        if (!row) {
            for (int j = 0; j < 8; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(out);
            return NULL;
        }
        for (int j = 0; j < 8; j++)
            PyTuple_SET_ITEM(row, j, items[j]);
        PyTuple_SET_ITEM(out, i, row);
    }
    return out;
}

/* ------------------------------------------------------------------ reading parameters */

static int
need_configured(void)
{
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "the native core is not configured (core.configure_native)");
        return -1;
    }
    return 0;
}

static int
field_long(PyObject *tuple, Py_ssize_t i, long low, long high, const char *what, long *out)
{
    return small_int(PyTuple_GET_ITEM(tuple, i), low, high, what, out);
}

static int
field_bool(PyObject *tuple, Py_ssize_t i, int *out)
{
    int b = PyObject_IsTrue(PyTuple_GET_ITEM(tuple, i));
    if (b < 0)
        return -1;
    *out = b;
    return 0;
}

static StageObject *
as_stage(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &StageType)) {
        PyErr_Format(PyExc_TypeError, "expected a native Stage, not %.100s", Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return (StageObject *)obj;
}

#define BIG (1L << 30)

/* ------------------------------------------------------------------ suit_step */

static PyObject *
suit_step(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "suit_step(stage, step)");
        return NULL;
    }
    StageObject *stage = as_stage(args[0]);
    if (!stage)
        return NULL;
    PyObject *step = args[1];
    if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 8) {
        PyErr_SetString(PyExc_TypeError, "step: a SuitStep");
        return NULL;
    }
    long at_suit, at_pool, slack, ahead, bound;
    int replace, exact;
    if (field_long(step, 0, 0, 100, "at_suit", &at_suit) < 0 || field_long(step, 1, 0, 120, "at_pool", &at_pool) < 0 ||
        field_long(step, 3, -BIG, BIG, "slack", &slack) < 0 || field_long(step, 4, 0, BIG, "ahead", &ahead) < 0 ||
        field_long(step, 5, -BIG, BIG, "bound", &bound) < 0 || field_bool(step, 6, &replace) < 0 ||
        field_bool(step, 7, &exact) < 0)
        return NULL;
    PlaceC place;
    if (read_place(PyTuple_GET_ITEM(step, 2), &place) < 0)
        return NULL;
    trim_caches();

    StageObject *out = stage_new(stage->n);
    if (!out)
        return NULL;
    active_calls++; /* (see rows_cache) */
    for (Py_ssize_t si = 0; si < stage->n; si++) {
        /* (stage is not changed here, so its slots stay put) */
        Slot *slot = &stage->slots[si];
        u128 pkey = slot->key;
        uint64_t here = (uint64_t)(pkey >> at_suit & SUIT_MASK);
        int purity = (pkey & PURITY) != 0;
        RowSet *set = rows_of(&place, here, purity);
        if (!set)
            goto fail;
        Entry *entries = entries_of(slot);
        int32_t count = slot->n;
        for (Py_ssize_t ri = 0; ri < set->n; ri++) {
            const Row *r = &set->row[ri];
            Py_ssize_t target = -1;
            for (int32_t ei = 0; ei < count; ei++) {
                long balance = entries[ei].balance;
                long total = balance + r->jokers + r->owed;
                long cost = entries[ei].cost + r->loose;
                if (total > (replace ? slack + bound - cost : slack))
                    continue;
                if (r->loose && cost + ahead > bound)
                    continue;
                if (target < 0) {
                    u128 key = (pkey + ((u128)(i128)r->change << at_suit) + ((u128)r->pool << at_pool) + r->adds) |
                               r->extends;
                    target = stage_slot(out, key);
                    if (target < 0)
                        goto fail;
                }
                Entry e = {pkey, (int32_t)total, (int32_t)cost, (int32_t)balance, 0, r->move};
                if (insert(out, &out->slots[target], &e, exact) < 0)
                    goto fail;
            }
        }
    }
    active_calls--;
    if (replace && place.buy)
        drop_dearer_bought(out, exact);
    return (PyObject *)out;
fail:
    active_calls--;
    Py_DECREF(out);
    return NULL;
}

/* ------------------------------------------------------------------ close_position */

typedef struct {
    PyObject *obj; /* borrowed from the splits tuple, held by ``owner`` */
    int32_t jokers, loose_points, extension;
} Split;

typedef struct {
    PyObject *owner; /* owned: the tuple of splits */
    Split *split;
    Py_ssize_t n;
} SplitSet;

static int
read_splits(PyObject *splits, SplitSet *set)
{
    if (!PyTuple_Check(splits)) {
        PyErr_SetString(PyExc_TypeError, "pool_splits must return a tuple");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(splits);
    Split *split = PyMem_Malloc(sizeof(Split) * (n ? n : 1));
    if (!split) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyTuple_GET_ITEM(splits, i);
        PyObject *j = PyObject_GetAttrString(s, "jokers");
        PyObject *l = j ? PyObject_GetAttrString(s, "loose_points") : NULL;
        PyObject *x = l ? PyObject_GetAttrString(s, "extension") : NULL;
        long jokers = 0, loose = 0;
        int ext = x ? PyObject_IsTrue(x) : -1;
        int bad = !x || ext < 0 || small_int(j, -1000, 1000, "a split's jokers", &jokers) < 0 ||
                  small_int(l, 0, 100000, "a split's loose points", &loose) < 0;
        Py_XDECREF(j);
        Py_XDECREF(l);
        Py_XDECREF(x);
        if (bad) {
            PyMem_Free(split);
            return -1;
        }
        split[i] = (Split){s, (int32_t)jokers, (int32_t)loose, ext};
    }
    set->owner = Py_NewRef(splits);
    set->split = split;
    set->n = n;
    return 0;
}

static void
free_splits(SplitSet *sets, int n)
{
    for (int i = 0; i < n; i++) {
        if (sets[i].owner) {
            Py_DECREF(sets[i].owner);
            PyMem_Free(sets[i].split);
        }
    }
}

#include "_native_pools.c"

static SplitSet setless_set; /* the splits of a rank where no set can form (core._SETLESS), read by configure */

/* Empty the tables kept across calls that have grown past their bounds: only between calls
 * (see rows_cache). */
static void
trim_caches(void)
{
    if (active_calls != 0)
        return;
    if (rows_count > ROWS_MOST)
        rows_clear();
    if (ps_count > SPLITS_MOST)
        splits_clear();
}

/* packing.forget_purity_of: a layer key with each suit's pure runs counted as impure. */
static int
forget_purity_of(u128 key, u128 *out)
{
    for (int s = 0; s < 4; s++) {
        uint64_t code = (uint64_t)(key >> AT_SUIT[s] & SUIT_MASK), forgot;
        if (forget_purity(code, &forgot) < 0)
            return -1;
        key = (key & ~(SUIT_MASK << AT_SUIT[s])) | (u128)forgot << AT_SUIT[s];
    }
    *out = key;
    return 0;
}

static PyObject *close_stage(StageObject *stage, PyObject *c);

static PyObject *
close_position(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "close_position(stage, closing)");
        return NULL;
    }
    StageObject *stage = as_stage(args[0]);
    if (!stage)
        return NULL;
    trim_caches();
    active_calls++; /* (the splits it reads are kept until it returns) */
    PyObject *out = close_stage(stage, args[1]);
    active_calls--;
    return out;
}

static PyObject *
close_stage(StageObject *stage, PyObject *c)
{
    if (!PyTuple_Check(c) || PyTuple_GET_SIZE(c) != 13) {
        PyErr_SetString(PyExc_TypeError, "closing: a Closing");
        return NULL;
    }
    long need, spend, points, max_set, limit, ahead, bound;
    int setless, replace, aside, exact;
    if (field_long(c, 0, 0, 63, "need", &need) < 0 || field_long(c, 1, 0, 127, "spend", &spend) < 0 ||
        field_bool(c, 3, &setless) < 0 || field_long(c, 5, 0, 1000, "points", &points) < 0 ||
        field_long(c, 6, 0, 100, "max_set", &max_set) < 0 || field_long(c, 7, -BIG, BIG, "limit", &limit) < 0 ||
        field_long(c, 8, 0, BIG, "ahead", &ahead) < 0 || field_long(c, 9, -BIG, BIG, "bound", &bound) < 0 ||
        field_bool(c, 10, &replace) < 0 || field_bool(c, 11, &aside) < 0 || field_bool(c, 12, &exact) < 0)
        return NULL;
    PyObject *pure_left_obj = PyTuple_GET_ITEM(c, 2), *jokerish = PyTuple_GET_ITEM(c, 4);
    PyObject *pure_left_seq = PySequence_Fast(pure_left_obj, "pure_left: a sequence");
    if (!pure_left_seq)
        return NULL;
    Py_ssize_t n_left = PySequence_Fast_GET_SIZE(pure_left_seq);
    if (n_left < spend + 1) {
        Py_DECREF(pure_left_seq);
        PyErr_SetString(PyExc_ValueError, "pure_left: one number for each count of cards bought");
        return NULL;
    }
    long pure_left[128];
    for (Py_ssize_t i = 0; i <= spend; i++) {
        if (small_int(PySequence_Fast_GET_ITEM(pure_left_seq, i), 0, 1000, "pure_left", &pure_left[i]) < 0) {
            Py_DECREF(pure_left_seq);
            return NULL;
        }
    }
    Py_DECREF(pure_left_seq);

    int jokerish_bits;
    if (ps_bits(jokerish, 1, &jokerish_bits) < 0)
        return NULL;
    const SplitSet *sets[256] = {NULL};
    StageObject *out = stage_new(stage->n);
    if (!out)
        return NULL;

    for (Py_ssize_t si = 0; si < stage->n; si++) {
        Slot *slot = &stage->slots[si];
        u128 pkey = slot->key;
        long bought = (long)(pkey >> AT_BOUGHT & BOUGHT_MASK);
        if (bought > spend)
            continue;
        long pure = (long)(pkey >> AT_PURE & PURE_MASK);
        long owed = (long)(pkey >> AT_OWED & OWED_MASK);
        int ext = (pkey & EXTENDS) != 0;
        u128 new_key = pkey & LAYER_BITS;
        if (pure > need) {
            new_key -= (u128)(pure - need) << AT_PURE;
            pure = need;
        }
        else if (pure < need &&
                 pure + pure_left[bought] + OPEN_PURE[(int)(pkey & 255)] + OPEN_PURE[(int)(pkey >> AT_SUIT[1] & 255)] +
                         OPEN_PURE[(int)(pkey >> AT_SUIT[2] & 255)] + OPEN_PURE[(int)(pkey >> AT_SUIT[3] & 255)] <
                     need) {
            continue;
        }
        if ((pkey & PURITY) && pure >= need && forget_purity_of(new_key, &new_key) < 0)
            goto fail;
        int pool = (int)(pkey >> AT_POOLS & 255);
        const SplitSet *set = setless ? &setless_set : sets[pool];
        if (!set) {
            set = sets[pool] = splits_of(pool, jokerish_bits, points, (int)max_set, replace);
            if (!set)
                goto fail;
        }
        Py_ssize_t target = -1;
        Entry *entries = entries_of(slot);
        int32_t count = slot->n;
        for (int32_t ei = 0; ei < count; ei++) {
            long balance = entries[ei].balance;
            long base = balance - owed;
            for (Py_ssize_t k = 0; k < set->n; k++) {
                const Split *sp = &set->split[k];
                long total = base + sp->jokers;
                long cost = entries[ei].cost + sp->loose_points;
                if (replace) {
                    total -= sp->loose_points;
                    if (total + owed > limit + bound - cost)
                        continue;
                }
                else if (total + owed > limit) {
                    continue;
                }
                if ((sp->extension || ext) && !exact)
                    continue;
                if (aside && !bought && sp->loose_points && cost - points + ahead <= bound) {
                    Py_ssize_t at = stage_slot(out, new_key | (u128)1 << AT_BOUGHT);
                    if (at < 0)
                        goto fail;
                    Entry e = {pkey, (int32_t)total, (int32_t)(cost - points), (int32_t)balance, 0, sp->obj};
                    if (insert(out, &out->slots[at], &e, exact) < 0)
                        goto fail;
                }
                if (cost + ahead > bound)
                    continue;
                if (target < 0) {
                    target = stage_slot(out, new_key);
                    if (target < 0)
                        goto fail;
                }
                Entry e = {pkey, (int32_t)total, (int32_t)cost, (int32_t)balance, 0, sp->obj};
                if (insert(out, &out->slots[target], &e, exact) < 0)
                    goto fail;
            }
        }
    }
    if (replace)
        drop_dearer_bought(out, exact);
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ------------------------------------------------------------------ small stage operations */

/* core.stage_from: a stage from a dict {packed state: [(balance, cost, back)]} (the first
 * layer), each back kept as it is (a Start). */
static PyObject *
stage_from(PyObject *Py_UNUSED(module), PyObject *layer)
{
    if (need_configured() < 0)
        return NULL;
    if (!PyDict_Check(layer)) {
        PyErr_SetString(PyExc_TypeError, "stage_from(dict)");
        return NULL;
    }
    StageObject *out = stage_new(PyDict_GET_SIZE(layer));
    if (!out)
        return NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(layer, &pos, &key, &value)) {
        u128 k;
        if (to_u128(key, &k) < 0)
            goto fail;
        if (!PyList_Check(value)) {
            PyErr_SetString(PyExc_TypeError, "a layer's entries are a list");
            goto fail;
        }
        Py_ssize_t at = stage_slot(out, k);
        if (at < 0)
            goto fail;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++) {
            PyObject *t = PyList_GET_ITEM(value, i);
            long balance, cost;
            if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
                PyErr_SetString(PyExc_TypeError, "an entry is (balance, cost, back)");
                goto fail;
            }
            if (small_int(PyTuple_GET_ITEM(t, 0), -BIG, BIG, "a balance", &balance) < 0 ||
                small_int(PyTuple_GET_ITEM(t, 1), -BIG, BIG, "a cost", &cost) < 0)
                goto fail;
            Entry e = {0, (int32_t)balance, (int32_t)cost, 0, START, PyTuple_GET_ITEM(t, 2)};
            Py_INCREF(e.obj);
            if (slot_append(out, &out->slots[at], &e) < 0) {
                Py_DECREF(e.obj);
                goto fail;
            }
        }
    }
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* core.marked: the layer's states flagged PURITY where fewer than ``need`` pure groups. */
static PyObject *
marked(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "marked(layer, need)");
        return NULL;
    }
    StageObject *layer = as_stage(args[0]);
    long need;
    if (!layer || small_int(args[1], 0, 63, "need", &need) < 0)
        return NULL;
    StageObject *out = stage_new(layer->n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < layer->n; i++) {
        Slot *slot = &layer->slots[i];
        u128 key = slot->key;
        if ((long)(key >> AT_PURE & PURE_MASK) < need)
            key |= PURITY;
        Py_ssize_t at = stage_slot(out, key);
        if (at < 0)
            goto fail;
        Slot *into = &out->slots[at];
        /* As a dict comprehension does, a repeated key keeps the later entries. */
        Entry *old = entries_of(into);
        for (int32_t j = 0; j < into->n; j++)
            Py_DECREF(old[j].obj);
        into->n = 0;
        Entry *e = entries_of(slot);
        for (int32_t j = 0; j < slot->n; j++) {
            Py_INCREF(e[j].obj);
            if (slot_append(out, into, &e[j]) < 0) {
                Py_DECREF(e[j].obj);
                goto fail;
            }
        }
    }
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* The entry of ``key`` with joker balance ``balance`` in ``stage`` (a LookupError if none). */
static Entry *
entry_of(StageObject *stage, u128 key, long balance)
{
    Py_ssize_t at = stage_find(stage, key);
    if (at >= 0) {
        Slot *slot = &stage->slots[at];
        Entry *e = entries_of(slot);
        for (int32_t i = 0; i < slot->n; i++) {
            if (e[i].balance == balance)
                return &e[i];
        }
    }
    PyErr_Format(PyExc_LookupError, "no entry with balance %ld at that state", balance);
    return NULL;
}

/* core.back_of: the back-pointer of ``key``'s entry with joker balance ``balance``. */
static PyObject *
back_of(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "back_of(stage, key, balance)");
        return NULL;
    }
    StageObject *stage = as_stage(args[0]);
    u128 key;
    long balance;
    if (!stage || to_u128(args[1], &key) < 0 || small_int(args[2], -BIG, BIG, "balance", &balance) < 0)
        return NULL;
    Entry *e = entry_of(stage, key, balance);
    if (!e)
        return NULL;
    if (e->flags & START)
        return Py_NewRef(e->obj);
    PyObject *prev = from_u128(e->prev_key);
    return prev ? Py_BuildValue("(NiO)", prev, (int)e->prev_balance, e->obj) : NULL;
}

/* core.idle: whether no state has an open run in the suit at ``at_suit``. */
static PyObject *
idle(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "idle(stage, at_suit)");
        return NULL;
    }
    StageObject *stage = as_stage(args[0]);
    long at_suit;
    if (!stage || small_int(args[1], 0, 100, "at_suit", &at_suit) < 0)
        return NULL;
    for (Py_ssize_t i = 0; i < stage->n; i++) {
        if ((stage->slots[i].key >> at_suit & SUIT_MASK) != EMPTY)
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

/* ------------------------------------------------------------------ configure */

static PyObject *
kw_callable(PyObject *kwargs, const char *name)
{
    PyObject *v = PyDict_GetItemString(kwargs, name);
    if (!v || !PyCallable_Check(v)) {
        PyErr_Format(PyExc_TypeError, "configure: %s must be a function", name);
        return NULL;
    }
    return v;
}

static PyObject *
configure(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) != 0 || !kwargs) {
        PyErr_SetString(PyExc_TypeError, "configure takes keyword arguments only");
        return NULL;
    }
    if (active_calls != 0) {
        PyErr_SetString(PyExc_RuntimeError, "configure: a sweep is running");
        return NULL;
    }
    if (PyDict_GET_SIZE(kwargs) != 3) {
        PyErr_SetString(PyExc_TypeError, "configure takes pool_split, set_of and setless");
        return NULL;
    }
    PyObject *split_type = kw_callable(kwargs, "pool_split"), *set_type = kw_callable(kwargs, "set_of");
    PyObject *sl = PyDict_GetItemString(kwargs, "setless");
    if (!split_type || !set_type)
        return NULL;
    if (!sl || !PyTuple_Check(sl)) {
        PyErr_SetString(PyExc_TypeError, "configure: setless is a tuple of splits");
        return NULL;
    }
    SplitSet setless_read;
    if (read_splits(sl, &setless_read) < 0)
        return NULL;
    free_splits(&setless_set, 1);
    setless_set = setless_read;
    Py_XSETREF(pool_split_type, Py_NewRef(split_type));
    Py_XSETREF(set_of_type, Py_NewRef(set_type));
    rows_clear();
    splits_clear();
    configured = 1;
    Py_RETURN_NONE;
}

/* moves.sweep_moves(state, purity, place), from the rows suit_step uses (for the tests). */
static PyObject *
sweep_moves(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "sweep_moves(state, purity, place)");
        return NULL;
    }
    long state, purity;
    PlaceC place;
    if (small_int(args[0], 0, (long)SUIT_MASK, "a suit state", &state) < 0 ||
        small_int(args[1], 0, 1, "purity", &purity) < 0 || read_place(args[2], &place) < 0)
        return NULL;
    trim_caches();
    active_calls++;
    RowSet *set = rows_of(&place, (uint64_t)state, (int)purity);
    PyObject *out = set ? rows_tuple(set) : NULL;
    active_calls--;
    return out;
}

static PyObject *
clear_caches(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored))
{
    if (active_calls == 0) {
        rows_clear();
        splits_clear();
    }
    Py_RETURN_NONE;
}

static PyObject *
cache_size(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(rows_count);
}

/* ------------------------------------------------------------------ a sweep's positions */

#include "_native_sweep.c"

/* ------------------------------------------------------------------ rebuilding */

#include "_native_rebuild.c"

/* ------------------------------------------------------------------ module */

#include "_native_quick.c"

static PyMethodDef module_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "Set the Python classes the pool splits are made of (core.configure_native)."},
    {"suit_step", (PyCFunction)(void (*)(void))suit_step, METH_FASTCALL,
     "The stage after one suit plays at a position (core.suit_step)."},
    {"close_position", (PyCFunction)(void (*)(void))close_position, METH_FASTCALL,
     "The next layer: pools split into sets (core.close_position)."},
    {"stage_from", (PyCFunction)stage_from, METH_O, "A stage from a dict of the first layer (core.stage_from)."},
    {"marked", (PyCFunction)(void (*)(void))marked, METH_FASTCALL,
     "A layer as a position's first stage (core.marked)."},
    {"idle", (PyCFunction)(void (*)(void))idle, METH_FASTCALL,
     "Whether no state has an open run in a suit (core.idle)."},
    {"back_of", (PyCFunction)(void (*)(void))back_of, METH_FASTCALL,
     "The back-pointer of a state's entry with a joker balance (core.back_of)."},
    {"sweep_positions", (PyCFunction)(void (*)(void))sweep_positions, METH_FASTCALL,
     "The stages and next layer of each position of a sweep (core.sweep_positions)."},
    {"sweep_moves", (PyCFunction)(void (*)(void))sweep_moves, METH_FASTCALL,
     "A suit's move rows at a place, as moves.sweep_moves gives them (its twin, in C)."},
    {"rebuild_groups", (PyCFunction)(void (*)(void))rebuild_groups, METH_FASTCALL,
     "The groups a sweep's back-pointers lead to (core.rebuild_groups, its twin in C)."},
    {"clear_caches", (PyCFunction)clear_caches, METH_NOARGS, "Forget the move rows and pool splits kept."},
    {"pool_splits", (PyCFunction)(void (*)(void))pool_splits, METH_FASTCALL,
     "A rank's pool split into sets (pools.pool_splits, its twin in C)."},
    {"cache_size", (PyCFunction)cache_size, METH_NOARGS, "How many (place, state, purity) move rows are kept."},
    {"greedy_arrangement", (PyCFunction)(void (*)(void))greedy_arrangement, METH_FASTCALL,
     "The quick first pass's greedy arrangement (greedy.greedy_arrangement, its twin in C)."},
    {"max_pure_groups", (PyCFunction)max_pure_groups, METH_O,
     "The most disjoint pure groups the cards could ever form (bounds.max_pure_groups, in C)."},
    {"hand_plan", (PyCFunction)(void (*)(void))hand_plan, METH_FASTCALL,
     "What a sweep reads of the hand (core.hand_plan, its twin in C)."},
    {"suit_table", (PyCFunction)suit_table, METH_O,
     "What a sweep reads of one suit, by position (core.suit_table, its twin in C)."},
    {NULL, NULL, 0, NULL},
};

static void
module_free(void *Py_UNUSED(module))
{
    rows_clear();
    PyMem_Free(rows_cache);
    rows_cache = NULL;
    for (size_t i = 0; i < sizeof(triples) / sizeof(triples[0]); i++)
        Py_CLEAR(triples[i]);
    splits_clear();
    PyMem_Free(ps_table);
    ps_table = NULL;
    free_splits(&setless_set, 1);
    memset(&setless_set, 0, sizeof(setless_set));
    Py_CLEAR(pool_split_type);
    Py_CLEAR(set_of_type);
    configured = 0;
}

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rummy21.solver._native",
    .m_doc = "The native twin of rummy21.solver.core: the sweep's hot path in C.",
    .m_size = -1,
    .m_methods = module_methods,
    .m_free = module_free,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    if (PyType_Ready(&StageType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (!m)
        return NULL;
    if (PyModule_AddObjectRef(m, "Stage", (PyObject *)&StageType) < 0 || PyModule_AddIntMacro(m, SLOTS) < 0 ||
        PyModule_AddIntMacro(m, CLASSES) < 0 || PyModule_AddIntMacro(m, PHASES) < 0 ||
        PyModule_AddIntMacro(m, ROLES) < 0 || PyModule_AddStringConstant(m, "TABLES", TABLES_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
