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
 * What this file does not know it is told once, by configure() (core.configure_native): the
 * layout of a packed state and the Python functions that make the move tables and the pool
 * splits, which stay defined once, in Python, and are memoised there.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

/* ------------------------------------------------------------------ configuration */

static int configured = 0;
static int AT_SUIT[4], AT_POOLS, AT_PURE, AT_OWED, AT_BOUGHT;
static u128 SUIT_MASK, PURE_MASK, OWED_MASK, BOUGHT_MASK, EXTENDS, PURITY, LAYER_BITS;
static u128 EMPTY;
static int OPEN_PURE[256];
static PyObject *sweep_moves_fn = NULL, *pool_splits_fn = NULL, *forget_purity_fn = NULL;
static PyObject *setless_splits = NULL;

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
    Entry *more; /* all entries when there are more than one, else NULL */
    int32_t n, cap;
    Entry first;
} Slot;

typedef struct {
    PyObject_HEAD
    Slot *slots;
    Py_ssize_t n, cap;
    int32_t *index; /* open addressing: slot numbers, -1 where empty */
    size_t mask;    /* index size - 1 (a power of two) */
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
            PyMem_Free(slot->more);
        }
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

static int
slot_append(Slot *slot, const Entry *entry)
{
    if (slot->n == 0 && !slot->more) {
        slot->first = *entry;
        slot->n = 1;
        return 0;
    }
    if (!slot->more) {
        Entry *more = PyMem_Malloc(sizeof(Entry) * 4);
        if (!more) {
            PyErr_NoMemory();
            return -1;
        }
        more[0] = slot->first;
        slot->more = more;
        slot->cap = 4;
    }
    else if (slot->n == slot->cap) {
        Entry *more = PyMem_Realloc(slot->more, sizeof(Entry) * slot->cap * 2);
        if (!more) {
            PyErr_NoMemory();
            return -1;
        }
        slot->more = more;
        slot->cap *= 2;
    }
    slot->more[slot->n++] = *entry;
    return 0;
}

/* core.insert: add an entry unless another of the same state beats it; drop those it beats.
 * The entry's object is borrowed; the stage takes its own reference when it keeps it. */
static int
insert(Slot *slot, Entry *entry, int exact)
{
    Entry *e = entries_of(slot);
    int32_t n = slot->n;
    if (n == 0) {
        Py_INCREF(entry->obj);
        return slot_append(slot, entry);
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
        return slot_append(slot, entry);
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
        slot->n = kept;
        if (slot->more && kept == 0) {
            /* keep using the array: entries_of must stay consistent */
        }
    }
    Py_INCREF(entry->obj);
    return slot_append(slot, entry);
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

typedef struct {
    u128 adds;     /* step: pure groups, owed jokers, cards bought */
    u128 extends;  /* EXTENDS or 0 */
    int64_t change;
    int32_t pool, jokers, owed, loose;
    PyObject *move; /* borrowed from the rows tuple, which the cache holds */
} Row;

typedef struct {
    PyObject *rows; /* owned: the tuple sweep_moves returned (keeps the moves alive) */
    Row *row;
    Py_ssize_t n;
} RowSet;

/* Converted move tables, by the identity of the tuple sweep_moves returned (memoised there:
 * the same arguments give the same tuple, which the entry here keeps alive). The table holds
 * pointers, so growing it moves no RowSet; it is emptied only between calls (when no call is
 * running in any thread), once it holds more than ROWS_MOST. */
#define ROWS_MOST (1 << 16)
static RowSet **rows_cache = NULL;
static size_t rows_mask = 0, rows_count = 0;
static int active_calls = 0;

static void
rows_clear(void)
{
    if (!rows_cache)
        return;
    for (size_t i = 0; i <= rows_mask; i++) {
        RowSet *set = rows_cache[i];
        if (set) {
            Py_DECREF(set->rows);
            PyMem_Free(set->row);
            PyMem_Free(set);
            rows_cache[i] = NULL;
        }
    }
    rows_count = 0;
}

static inline size_t
rows_hash(PyObject *rows)
{
    return (size_t)(((uint64_t)(uintptr_t)rows >> 4) * 0x9E3779B97F4A7C15ULL >> 20);
}

static int
convert_rows(PyObject *rows, RowSet *set)
{
    if (!PyTuple_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "sweep_moves must return a tuple of rows");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(rows);
    Row *row = PyMem_Malloc(sizeof(Row) * (n ? n : 1));
    if (!row) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyTuple_GET_ITEM(rows, i);
        if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 8) {
            PyErr_SetString(PyExc_ValueError, "a move row is a tuple of 8");
            goto fail;
        }
        long change, pool, jokers, owed, loose;
        u128 adds, extends;
        if (small_int(PyTuple_GET_ITEM(r, 0), -(1L << 30), 1L << 30, "a move's change", &change) < 0 ||
            small_int(PyTuple_GET_ITEM(r, 1), 0, 3, "a move's pool", &pool) < 0 ||
            to_u128(PyTuple_GET_ITEM(r, 2), &adds) < 0 || to_u128(PyTuple_GET_ITEM(r, 3), &extends) < 0 ||
            small_int(PyTuple_GET_ITEM(r, 4), -1000, 1000, "a move's jokers", &jokers) < 0 ||
            small_int(PyTuple_GET_ITEM(r, 5), 0, 1000, "a move's owed jokers", &owed) < 0 ||
            small_int(PyTuple_GET_ITEM(r, 6), 0, 100000, "a move's loose points", &loose) < 0)
            goto fail;
        row[i] = (Row){adds, extends, change, (int32_t)pool, (int32_t)jokers, (int32_t)owed, (int32_t)loose,
                       PyTuple_GET_ITEM(r, 7)};
    }
    set->rows = Py_NewRef(rows);
    set->row = row;
    set->n = n;
    return 0;
fail:
    PyMem_Free(row);
    return -1;
}

static int
rows_grow(void)
{
    size_t size = rows_cache ? (rows_mask + 1) * 2 : (1 << 12);
    RowSet **table = PyMem_Calloc(size, sizeof(RowSet *));
    if (!table) {
        PyErr_NoMemory();
        return -1;
    }
    if (rows_cache) {
        for (size_t i = 0; i <= rows_mask; i++) {
            RowSet *set = rows_cache[i];
            if (!set)
                continue;
            size_t j = rows_hash(set->rows) & (size - 1);
            while (table[j])
                j = (j + 1) & (size - 1);
            table[j] = set;
        }
        PyMem_Free(rows_cache);
    }
    rows_cache = table;
    rows_mask = size - 1;
    return 0;
}

static RowSet *
rows_of(PyObject *rows)
{
    if ((!rows_cache || (rows_count + 1) * 2 > rows_mask + 1) && rows_grow() < 0)
        return NULL;
    size_t i = rows_hash(rows) & rows_mask;
    for (;;) {
        RowSet *set = rows_cache[i];
        if (!set)
            break;
        if (set->rows == rows)
            return set;
        i = (i + 1) & rows_mask;
    }
    RowSet *set = PyMem_Malloc(sizeof(RowSet));
    if (!set) {
        PyErr_NoMemory();
        return NULL;
    }
    if (convert_rows(rows, set) < 0) {
        PyMem_Free(set);
        return NULL;
    }
    rows_cache[i] = set;
    rows_count++;
    return set;
}

/* The move rows of a suit in ``state`` (purity flag ``purity``) at ``place``, from a small
 * per-call table (as core.suit_step's ``known``). */
typedef struct {
    int64_t code; /* state << 1 | purity, -1 where empty */
    RowSet *set;
} Known;

typedef struct {
    Known *slot;
    size_t mask, count;
} KnownTable;

static int
known_init(KnownTable *t)
{
    t->mask = 63;
    t->count = 0;
    t->slot = PyMem_Malloc(sizeof(Known) * 64);
    if (!t->slot) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < 64; i++)
        t->slot[i].code = -1;
    return 0;
}

static RowSet *
known_rows(KnownTable *t, uint64_t state, int purity, PyObject *place)
{
    int64_t code = (int64_t)(state << 1 | (uint64_t)purity);
    size_t i = ((uint64_t)code * 0x9E3779B97F4A7C15ULL >> 40) & t->mask;
    while (t->slot[i].code >= 0) {
        if (t->slot[i].code == code)
            return t->slot[i].set;
        i = (i + 1) & t->mask;
    }
    PyObject *st = PyLong_FromUnsignedLongLong(state);
    if (!st)
        return NULL;
    PyObject *rows = PyObject_CallFunctionObjArgs(sweep_moves_fn, st, purity ? Py_True : Py_False, place, NULL);
    Py_DECREF(st);
    if (!rows)
        return NULL;
    RowSet *set = rows_of(rows);
    Py_DECREF(rows);
    if (!set)
        return NULL;
    if ((t->count + 1) * 2 > t->mask + 1) {
        size_t size = (t->mask + 1) * 2;
        Known *slot = PyMem_Malloc(sizeof(Known) * size);
        if (!slot) {
            PyErr_NoMemory();
            return NULL;
        }
        for (size_t j = 0; j < size; j++)
            slot[j].code = -1;
        for (size_t j = 0; j <= t->mask; j++) {
            if (t->slot[j].code < 0)
                continue;
            size_t k = ((uint64_t)t->slot[j].code * 0x9E3779B97F4A7C15ULL >> 40) & (size - 1);
            while (slot[k].code >= 0)
                k = (k + 1) & (size - 1);
            slot[k] = t->slot[j];
        }
        PyMem_Free(t->slot);
        t->slot = slot;
        t->mask = size - 1;
        i = ((uint64_t)code * 0x9E3779B97F4A7C15ULL >> 40) & t->mask;
        while (t->slot[i].code >= 0)
            i = (i + 1) & t->mask;
    }
    t->slot[i].code = code;
    t->slot[i].set = set;
    t->count++;
    return set;
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
    PyObject *place = PyTuple_GET_ITEM(step, 2);
    if (active_calls == 0 && rows_count > ROWS_MOST)
        rows_clear();

    KnownTable known;
    if (known_init(&known) < 0)
        return NULL;
    StageObject *out = stage_new(stage->n);
    if (!out) {
        PyMem_Free(known.slot);
        return NULL;
    }
    active_calls++; /* (sweep_moves runs Python code: another thread may call in meanwhile) */
    for (Py_ssize_t si = 0; si < stage->n; si++) {
        /* (stage is not changed here, so its slots stay put) */
        Slot *slot = &stage->slots[si];
        u128 pkey = slot->key;
        uint64_t here = (uint64_t)(pkey >> at_suit & SUIT_MASK);
        int purity = (pkey & PURITY) != 0;
        RowSet *set = known_rows(&known, here, purity, place);
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
                if (insert(&out->slots[target], &e, exact) < 0)
                    goto fail;
            }
        }
    }
    active_calls--;
    PyMem_Free(known.slot);
    return (PyObject *)out;
fail:
    active_calls--;
    PyMem_Free(known.slot);
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
    PyObject *c = args[1];
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

    SplitSet sets[257];
    memset(sets, 0, sizeof(sets));
    StageObject *out = stage_new(stage->n);
    if (!out)
        return NULL;
    PyObject *points_obj = PyLong_FromLong(points), *max_set_obj = PyLong_FromLong(max_set);
    if (!points_obj || !max_set_obj)
        goto fail;
    if (setless && read_splits(setless_splits, &sets[256]) < 0)
        goto fail;

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
        if ((pkey & PURITY) && pure >= need) {
            PyObject *k = from_u128(new_key);
            PyObject *f = k ? PyObject_CallOneArg(forget_purity_fn, k) : NULL;
            Py_XDECREF(k);
            if (!f || to_u128(f, &new_key) < 0) {
                Py_XDECREF(f);
                goto fail;
            }
            Py_DECREF(f);
        }
        int pool = (int)(pkey >> AT_POOLS & 255);
        SplitSet *set = setless ? &sets[256] : &sets[pool];
        if (!set->owner) {
            PyObject *pools = Py_BuildValue("(iiii)", pool & 3, pool >> 2 & 3, pool >> 4 & 3, pool >> 6 & 3);
            PyObject *splits = pools ? PyObject_CallFunctionObjArgs(pool_splits_fn, pools, jokerish, points_obj,
                                                                    max_set_obj, replace ? Py_True : Py_False, NULL)
                                     : NULL;
            Py_XDECREF(pools);
            if (!splits)
                goto fail;
            int bad = read_splits(splits, set) < 0;
            Py_DECREF(splits);
            if (bad)
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
                    if (insert(&out->slots[at], &e, exact) < 0)
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
                if (insert(&out->slots[target], &e, exact) < 0)
                    goto fail;
            }
        }
    }
    free_splits(sets, 257);
    Py_XDECREF(points_obj);
    Py_XDECREF(max_set_obj);
    return (PyObject *)out;
fail:
    free_splits(sets, 257);
    Py_XDECREF(points_obj);
    Py_XDECREF(max_set_obj);
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
            if (slot_append(&out->slots[at], &e) < 0) {
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
            if (slot_append(into, &e[j]) < 0) {
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
    Py_ssize_t at = stage_find(stage, key);
    if (at >= 0) {
        Slot *slot = &stage->slots[at];
        Entry *e = entries_of(slot);
        for (int32_t i = 0; i < slot->n; i++) {
            if (e[i].balance != balance)
                continue;
            if (e[i].flags & START)
                return Py_NewRef(e[i].obj);
            PyObject *prev = from_u128(e[i].prev_key);
            return prev ? Py_BuildValue("(NiO)", prev, (int)e[i].prev_balance, e[i].obj) : NULL;
        }
    }
    PyErr_Format(PyExc_LookupError, "no entry with balance %ld at that state", balance);
    return NULL;
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

static int
kw_u128(PyObject *kwargs, const char *name, u128 *out)
{
    PyObject *v = PyDict_GetItemString(kwargs, name);
    if (!v) {
        PyErr_Format(PyExc_TypeError, "configure: %s is missing", name);
        return -1;
    }
    return to_u128(v, out);
}

static int
kw_shift(PyObject *kwargs, const char *name, int *out)
{
    PyObject *v = PyDict_GetItemString(kwargs, name);
    long value;
    if (!v) {
        PyErr_Format(PyExc_TypeError, "configure: %s is missing", name);
        return -1;
    }
    if (small_int(v, 0, 120, name, &value) < 0)
        return -1;
    *out = (int)value;
    return 0;
}

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
    PyObject *at_suit = PyDict_GetItemString(kwargs, "at_suit");
    if (!at_suit || !PyTuple_Check(at_suit) || PyTuple_GET_SIZE(at_suit) != 4) {
        PyErr_SetString(PyExc_TypeError, "configure: at_suit is a tuple of 4");
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        long v;
        if (small_int(PyTuple_GET_ITEM(at_suit, s), 0, 120, "at_suit", &v) < 0)
            return NULL;
        AT_SUIT[s] = (int)v;
    }
    if (kw_shift(kwargs, "at_pools", &AT_POOLS) < 0 || kw_shift(kwargs, "at_pure", &AT_PURE) < 0 ||
        kw_shift(kwargs, "at_owed", &AT_OWED) < 0 || kw_shift(kwargs, "at_bought", &AT_BOUGHT) < 0 ||
        kw_u128(kwargs, "suit_mask", &SUIT_MASK) < 0 || kw_u128(kwargs, "pure_mask", &PURE_MASK) < 0 ||
        kw_u128(kwargs, "owed_mask", &OWED_MASK) < 0 || kw_u128(kwargs, "bought_mask", &BOUGHT_MASK) < 0 ||
        kw_u128(kwargs, "extends", &EXTENDS) < 0 || kw_u128(kwargs, "purity", &PURITY) < 0 ||
        kw_u128(kwargs, "layer_bits", &LAYER_BITS) < 0 || kw_u128(kwargs, "empty", &EMPTY) < 0)
        return NULL;
    if (SUIT_MASK >> 63 || PURE_MASK > 63 || OWED_MASK > 1023 || BOUGHT_MASK > 127) {
        PyErr_SetString(PyExc_ValueError, "configure: a field is wider than the core allows");
        return NULL;
    }
    PyObject *open_pure = PyDict_GetItemString(kwargs, "open_pure");
    if (!open_pure || !PyTuple_Check(open_pure) || PyTuple_GET_SIZE(open_pure) != 256) {
        PyErr_SetString(PyExc_TypeError, "configure: open_pure is a tuple of 256");
        return NULL;
    }
    for (int i = 0; i < 256; i++) {
        long v;
        if (small_int(PyTuple_GET_ITEM(open_pure, i), 0, 64, "open_pure", &v) < 0)
            return NULL;
        OPEN_PURE[i] = (int)v;
    }
    PyObject *sm = kw_callable(kwargs, "sweep_moves"), *ps = kw_callable(kwargs, "pool_splits"),
             *fp = kw_callable(kwargs, "forget_purity_of");
    PyObject *sl = PyDict_GetItemString(kwargs, "setless");
    if (!sm || !ps || !fp)
        return NULL;
    if (!sl || !PyTuple_Check(sl)) {
        PyErr_SetString(PyExc_TypeError, "configure: setless is a tuple of splits");
        return NULL;
    }
    Py_XSETREF(sweep_moves_fn, Py_NewRef(sm));
    Py_XSETREF(pool_splits_fn, Py_NewRef(ps));
    Py_XSETREF(forget_purity_fn, Py_NewRef(fp));
    Py_XSETREF(setless_splits, Py_NewRef(sl));
    if (active_calls == 0)
        rows_clear();
    configured = 1;
    Py_RETURN_NONE;
}

static PyObject *
clear_caches(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored))
{
    if (active_calls == 0)
        rows_clear();
    Py_RETURN_NONE;
}

static PyObject *
cache_size(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(rows_count);
}

/* ------------------------------------------------------------------ module */

static PyMethodDef module_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "Set the packed state's layout and the Python functions the core calls."},
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
    {"clear_caches", (PyCFunction)clear_caches, METH_NOARGS, "Forget the converted move tables."},
    {"cache_size", (PyCFunction)cache_size, METH_NOARGS, "How many move tables are held converted."},
    {NULL, NULL, 0, NULL},
};

static void
module_free(void *Py_UNUSED(module))
{
    rows_clear();
    PyMem_Free(rows_cache);
    rows_cache = NULL;
    Py_CLEAR(sweep_moves_fn);
    Py_CLEAR(pool_splits_fn);
    Py_CLEAR(forget_purity_fn);
    Py_CLEAR(setless_splits);
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
    if (PyModule_AddObjectRef(m, "Stage", (PyObject *)&StageType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
