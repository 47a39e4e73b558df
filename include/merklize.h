/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * merklize.h: the C ABI of libmerklize (link with -lmerklize; pkg-config merklize).
 *
 * C99, and C++ through extern "C". Every binding (Python, Go, Rust) stands on this header alone.
 * The contract, in full, is docs/C_API.md; in short:
 *
 *  - Every function that can fail returns a merklize_status. On anything but MERKLIZE_OK,
 *    merklize_last_error() holds a message naming the input and the reason, for this thread,
 *    until the next call on this thread that fails. No C++ exception or type crosses this header.
 *  - Objects are opaque handles, created by a function that writes them through an out-pointer
 *    and released by their own _free function (each accepts NULL). Handles hold what they need:
 *    a builder keeps its device alive, a tree keeps its memory, so they may be freed in any order.
 *    A handle of another type, or one freed (lately: the last 64 frees), is refused where it can
 *    be told (MERKLIZE_ERROR_ARGUMENT, "`builder` is not a live merklize_builder handle: it was
 *    freed"; an accessor gives what it gives for NULL, a _free frees nothing); docs/C_API.md,
 *    "Handles", says what cannot be told.
 *  - A device, a builder and a log may be used from several threads: their calls are serialised.
 *    Trees, proofs and byte buffers are read-only after creation and can be read concurrently.
 *  - A failed call changes nothing the caller owns: out-pointers are written only on success, and
 *    no caller buffer is written unless the call succeeds (merklize_sha256_layer, merklize_blake3
 *    and the roots of merklize_tree_root etc. write their output at the end). A count past its
 *    limit (a batch, an append, leaf_count) is refused before anything of the caller's is read.
 *  - Configuration structs begin with a `size` member set by their _init function, so that a
 *    program built against this header keeps working with a later libmerklize that appended
 *    members. Always call the _init function, then set the members you need.
 *  - Names (hashes, shapes, leaf hashes) are strings, as the command-line tool spells them, so a
 *    hash added in a later version needs no new constant: merklize_hash_names() lists them.
 *
 * ABI versioning: MERKLIZE_ABI_VERSION is bumped on any incompatible change; the shared library's
 * soname is libmerklize.so.<MERKLIZE_ABI_VERSION> and its symbols carry the version node
 * MERKLIZE_<MERKLIZE_ABI_VERSION>. merklize_abi_version() tells which one was loaded.
 */
#ifndef MERKLIZE_H
#define MERKLIZE_H

#include <stddef.h>
#include <stdint.h>

#define MERKLIZE_ABI_VERSION 1

#if defined(_WIN32)
#if defined(MERKLIZE_BUILDING_LIBRARY)
#define MERKLIZE_API __declspec(dllexport)
#else
#define MERKLIZE_API
#endif
#elif defined(__GNUC__)
#define MERKLIZE_API __attribute__((visibility("default")))
#else
#define MERKLIZE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* OpenCL's handle types, declared as <CL/cl.h> declares them, so that this header needs no
 * OpenCL header: a cl_mem is a struct _cl_mem *, and so on. */
struct _cl_context;
struct _cl_device_id;
struct _cl_mem;
struct _cl_event;

/* ---------------------------------------------------------------------------------------------
 * Status, errors, version
 * ------------------------------------------------------------------------------------------- */

typedef enum merklize_status {
  MERKLIZE_OK = 0,
  MERKLIZE_ERROR_ARGUMENT = 1,  /* a bad argument: NULL where a value is needed, an unknown name,
                                   a configuration the tree does not allow, an index out of range */
  MERKLIZE_ERROR_NO_DEVICE = 2, /* no OpenCL device installed, or none matches the spec */
  MERKLIZE_ERROR_OPENCL = 3,    /* an OpenCL call failed; the message names the call and code */
  MERKLIZE_ERROR_IO = 4,        /* a file could not be opened or read, or changed while read */
  MERKLIZE_ERROR_DECODE = 5,    /* an encoded proof or a JSON text could not be decoded */
  MERKLIZE_ERROR_NO_MEMORY = 6, /* host memory ran out */
  MERKLIZE_ERROR_INTERNAL = 7,  /* a bug of libmerklize: please report the message */
  MERKLIZE_ERROR_UNUSABLE = 8   /* a device tree that an earlier call left unusable, failing
                                   after the device had begun to change it: free it, build it
                                   again (merklize_device_tree_create) */
} merklize_status;

/* The message of the last call on this thread that failed; "" if none did. The pointer stays
 * valid until the next failing call on this thread. */
MERKLIZE_API const char *merklize_last_error(void);

/* "MERKLIZE_OK", "MERKLIZE_ERROR_ARGUMENT", ...; "unknown status" for other values. */
MERKLIZE_API const char *merklize_status_name(merklize_status status);

/* The library's version, "MAJOR.MINOR.PATCH", and the ABI version it implements. */
MERKLIZE_API const char *merklize_version(void);
MERKLIZE_API uint32_t merklize_abi_version(void);

/* The names the tree configuration accepts, comma-separated: node hashes ("blake3,
 * blake3-parent,sha256,rfc6962,keccak256,sha3-256,poseidon2-babybear,poseidon2-koalabear,
 * poseidon2-goldilocks,poseidon2-bn254"), shapes ("promote,zero") and leaf hashes of data blocks
 * ("sha256,blake3,keccak256,sha3-256"). */
MERKLIZE_API const char *merklize_hash_names(void);
MERKLIZE_API const char *merklize_shape_names(void);
MERKLIZE_API const char *merklize_leaf_hash_names(void);

#define MERKLIZE_DIGEST_SIZE 32

/* A run of bytes the library made (an encoded proof, a hash tree, an outboard). */
typedef struct merklize_bytes merklize_bytes;
MERKLIZE_API const uint8_t *merklize_bytes_data(const merklize_bytes *bytes);
MERKLIZE_API size_t merklize_bytes_size(const merklize_bytes *bytes);
MERKLIZE_API void merklize_bytes_free(merklize_bytes *bytes);

/* ---------------------------------------------------------------------------------------------
 * Devices
 * ------------------------------------------------------------------------------------------- */

typedef struct merklize_device_info {
  uint32_t size;      /* sizeof(merklize_device_info), set by the caller */
  char spec[32];      /* "P:D", the spec that selects exactly this device */
  char name[256];     /* the device's name */
  char vendor[256];   /* the device's vendor */
  char platform[256]; /* the platform's name */
  char type[16];      /* "gpu", "cpu", "accelerator" or "other" */
} merklize_device_info;

/* The OpenCL devices of every platform, in the order `merklize devices` lists them. A machine
 * with no OpenCL platform has 0 devices (MERKLIZE_OK); a failing driver is MERKLIZE_ERROR_OPENCL.
 */
MERKLIZE_API merklize_status merklize_device_count(size_t *count);
/* Facts of device `index` (0 .. count - 1); info->size must be set to sizeof(*info). */
MERKLIZE_API merklize_status merklize_device_get_info(size_t index, merklize_device_info *info);

/* A device and its OpenCL context. */
typedef struct merklize_device merklize_device;

/* `spec` as the command-line tool's --device takes it: "P:D", or a case-insensitive part of the
 * platform's or the device's name or vendor, or "gpu" / "cpu". NULL or "": the default device
 * (MERKLIZE_DEVICE if set, else the first GPU, else the first device). */
MERKLIZE_API merklize_status merklize_device_open(const char *spec, merklize_device **device);
/* A device of the caller's own context, so that merklize_build_cl can take the caller's buffers.
 * Both are retained by the handle. */
MERKLIZE_API merklize_status merklize_device_open_cl(struct _cl_context *context,
                                                     struct _cl_device_id *device_id,
                                                     merklize_device **device);
MERKLIZE_API void merklize_device_free(merklize_device *device);
/* Facts of an opened device (info->size set by the caller). */
MERKLIZE_API merklize_status merklize_device_describe(const merklize_device *device,
                                                      merklize_device_info *info);

/* ---------------------------------------------------------------------------------------------
 * Tree configuration
 * ------------------------------------------------------------------------------------------- */

/* Which levels a tree built from host memory keeps. */
#define MERKLIZE_KEEP_ALL 0u                /* every level, leaves included */
#define MERKLIZE_KEEP_ROOT_ONLY 0xffffffffu /* the root alone */

typedef struct merklize_tree_config {
  uint32_t size;         /* sizeof(merklize_tree_config), set by merklize_tree_config_init */
  const char *hash;      /* the node hash: "blake3" (NULL), "blake3-parent", "sha256",
                            "rfc6962", "keccak256", "sha3-256", or a Poseidon2 compression of
                            field elements, "poseidon2-babybear", "poseidon2-koalabear",
                            "poseidon2-goldilocks", "poseidon2-bn254": binary trees of leaves
                            of canonical little-endian elements only, a leaf with an element
                            of p or more refused (MERKLIZE_ERROR_ARGUMENT, naming the leaf;
                            a path or descriptor is then read whole, not streamed); see
                            merklize_hash_names() */
  const char *shape;     /* "promote" (NULL): a lone last node moves up; "zero": leaves padded
                            with zero leaves to a full tree (SSZ) */
  int32_t depth;         /* -1: the natural depth; else the root's fixed depth (shape "zero",
                            SSZ's limit): the tree of 2^depth leaves, zero leaves after N */
  uint32_t arity;        /* children per node: 2, or a power of two up to 128 for a k-ary tree
                            (hash sha256, blake3, keccak256 or sha3-256, no fixed depth) */
  uint64_t leaf_size;    /* 0: the input is N 32-byte leaves; else it is data cut into blocks of
                            leaf_size bytes (the last one shorter), each hashed into a leaf */
  const char *leaf_hash; /* leaf_size only: "sha256", "blake3", "keccak256" or "sha3-256";
                            NULL: the tree's hash where it is one of those, else blake3 */
  const uint8_t *salt;   /* leaf_size with SHA-256 leaves only: salt_size bytes (at most 256)
                            hashed before every block */
  size_t salt_size;
  int32_t mix_in_length; /* nonzero: the root is SSZ's list root, the tree's root with
                            `length` mixed in (sha256, shape "zero" and a fixed depth, the list's
                            limit, only); proofs end with the length chunk */
  uint64_t length;       /* the list's length for mix_in_length */
  uint32_t keep;         /* builds from host memory keep levels keep..depth: MERKLIZE_KEEP_ALL,
                            MERKLIZE_KEEP_ROOT_ONLY, or a level */
} merklize_tree_config;

/* The defaults: blake3, promote, natural depth, arity 2, 32-byte leaves, every level kept. */
MERKLIZE_API void merklize_tree_config_init(merklize_tree_config *config);

/* ---------------------------------------------------------------------------------------------
 * Inputs
 * ------------------------------------------------------------------------------------------- */

/* Where an input comes from: host memory, a file by path, or an open file descriptor (read from
 * its current position to its end; a pipe or a socket works). Files are streamed: a root or a
 * proof of a file holds a few pieces of it in memory, whatever its size. */
typedef enum merklize_source_kind {
  MERKLIZE_SOURCE_MEMORY = 0,
  MERKLIZE_SOURCE_PATH = 1,
  MERKLIZE_SOURCE_FD = 2
} merklize_source_kind;

typedef struct merklize_source {
  merklize_source_kind kind;
  const void *data; /* MEMORY: the bytes (NULL only when size is 0) */
  uint64_t size;
  const char *path; /* PATH */
  int fd;           /* FD: not closed by the library */
} merklize_source;

static inline merklize_source merklize_source_memory(const void *data, uint64_t size) {
  merklize_source s;
  s.kind = MERKLIZE_SOURCE_MEMORY;
  s.data = data;
  s.size = size;
  s.path = NULL;
  s.fd = -1;
  return s;
}
static inline merklize_source merklize_source_path(const char *path) {
  merklize_source s = merklize_source_memory(NULL, 0);
  s.kind = MERKLIZE_SOURCE_PATH;
  s.path = path;
  return s;
}
static inline merklize_source merklize_source_fd(int fd) {
  merklize_source s = merklize_source_memory(NULL, 0);
  s.kind = MERKLIZE_SOURCE_FD;
  s.fd = fd;
  return s;
}

/* ---------------------------------------------------------------------------------------------
 * Builders and trees
 * ------------------------------------------------------------------------------------------- */

/* A tree configuration checked and bound to a device, with its programs and memory pools: build
 * many trees with one builder. The device may be freed before the builder. */
typedef struct merklize_builder merklize_builder;

MERKLIZE_API merklize_status merklize_builder_create(merklize_device *device,
                                                     const merklize_tree_config *config,
                                                     merklize_builder **builder);
MERKLIZE_API void merklize_builder_free(merklize_builder *builder);

/* A built tree in host memory: its levels (those the configuration keeps) and its root. */
typedef struct merklize_tree merklize_tree;

/* Builds the tree of a source. From memory, the levels config.keep asks for are kept; from a
 * file or a descriptor with keep = MERKLIZE_KEEP_ROOT_ONLY the input is streamed and only the
 * root kept, with any other keep the input is read whole and built as from memory. An input of
 * no leaves has a root only where the tree defines one (rfc6962, shape zero with a fixed depth);
 * else it is MERKLIZE_ERROR_ARGUMENT. */
MERKLIZE_API merklize_status merklize_build(merklize_builder *builder,
                                            const merklize_source *source, merklize_tree **tree);

/* The root alone, streamed from any source: root receives 32 bytes. */
MERKLIZE_API merklize_status merklize_root(merklize_builder *builder, const merklize_source *source,
                                           uint8_t root[MERKLIZE_DIGEST_SIZE]);

MERKLIZE_API void merklize_tree_free(merklize_tree *tree);
MERKLIZE_API merklize_status merklize_tree_root(const merklize_tree *tree,
                                                uint8_t root[MERKLIZE_DIGEST_SIZE]);
MERKLIZE_API uint64_t merklize_tree_leaf_count(const merklize_tree *tree);
/* Stored levels above the leaves: the root is level merklize_tree_depth (a fixed depth or a mixed
 * length adds levels above it that are not stored). */
MERKLIZE_API uint32_t merklize_tree_depth(const merklize_tree *tree);
/* The lowest level kept (0 when the leaves are); above merklize_tree_depth when no level is (a
 * file streamed for its root where the root is above the stored levels, or no leaves). */
MERKLIZE_API uint32_t merklize_tree_first_level(const merklize_tree *tree);
/* Level `level`'s nodes, 32 bytes each, back to back, in the tree's own memory (no copy): valid
 * while the tree lives. */
MERKLIZE_API merklize_status merklize_tree_level(const merklize_tree *tree, uint32_t level,
                                                 const uint8_t **nodes, uint64_t *count);
MERKLIZE_API merklize_status merklize_tree_node(const merklize_tree *tree, uint32_t level,
                                                uint64_t index, uint8_t node[MERKLIZE_DIGEST_SIZE]);

/* The nodes merklize_build_cl writes for `leaf_count` leaves (levels 1..depth; 1 for one leaf). */
MERKLIZE_API uint64_t merklize_output_node_count(uint64_t leaf_count);

/* Device buffers in and out, nothing read back (binary trees of 32-byte leaves; the builder's
 * device opened with merklize_device_open_cl on the buffers' context). `leaves` holds
 * leaf_count x 32 bytes; `nodes` receives merklize_output_node_count(leaf_count) nodes: level 1
 * first, the root (or, with a fixed depth above the natural one, the top stored node) last.
 * Waits for `wait` (wait_count events) first. *done, if not NULL, receives a retained event that
 * completes with the tree: release it with clReleaseEvent. */
MERKLIZE_API merklize_status merklize_build_cl(merklize_builder *builder, struct _cl_mem *leaves,
                                               uint64_t leaf_count, struct _cl_mem *nodes,
                                               uint32_t wait_count, struct _cl_event *const *wait,
                                               struct _cl_event **done);

/* ---------------------------------------------------------------------------------------------
 * Proofs
 * ------------------------------------------------------------------------------------------- */

typedef enum merklize_proof_kind {
  MERKLIZE_PROOF_INCLUSION = 1,   /* one leaf of a binary tree (RFC 9162's audit path for rfc6962;
                                     the consensus specs' branch for an SSZ list) */
  MERKLIZE_PROOF_MULTI = 2,       /* several leaves of a binary tree */
  MERKLIZE_PROOF_CONSISTENCY = 3, /* an old tree is a prefix of a new one (RFC 9162 2.1.4) */
  MERKLIZE_PROOF_KARY = 4,        /* one leaf of a k-ary tree */
  MERKLIZE_PROOF_KARY_MULTI = 5   /* several leaves of a k-ary tree (docs/PROOFS.md, "k-ary
                                     multiproofs"; JSON "kind":"kary-multiproof") */
} merklize_proof_kind;

typedef enum merklize_encoding {
  MERKLIZE_ENCODING_JSON = 0,  /* one line of JSON, as `merklize proof` prints it */
  MERKLIZE_ENCODING_BINARY = 1 /* docs/PROOFS.md's binary form (not for k-ary proofs, inclusion
                                  or multi: encoding one so is MERKLIZE_ERROR_ARGUMENT) */
} merklize_encoding;

typedef struct merklize_proof merklize_proof;

/* Proofs from a tree that kept every level (MERKLIZE_KEEP_ALL). */
MERKLIZE_API merklize_status merklize_prove(const merklize_tree *tree, uint64_t index,
                                            merklize_proof **proof);
/* `indices`: count leaf indices, any order, repeats allowed (the proof holds them sorted). A
 * binary tree gives a MERKLIZE_PROOF_MULTI, a tree of arity k a MERKLIZE_PROOF_KARY_MULTI. */
MERKLIZE_API merklize_status merklize_prove_multi(const merklize_tree *tree,
                                                  const uint64_t *indices, size_t count,
                                                  merklize_proof **proof);
/* That the tree of the first old_size leaves is a prefix of this one (RFC 9162 2.1.4's proof):
 * binary trees of shape promote without a fixed depth, of any hash but blake3-parent. */
MERKLIZE_API merklize_status merklize_prove_consistency(const merklize_tree *tree,
                                                        uint64_t old_size, merklize_proof **proof);
/* The inclusion proof of leaf `index` of a source, streamed (only the chunk holding the leaf and
 * the other chunks' tops are kept). */
MERKLIZE_API merklize_status merklize_prove_source(merklize_builder *builder,
                                                   const merklize_source *source, uint64_t index,
                                                   merklize_proof **proof);

MERKLIZE_API void merklize_proof_free(merklize_proof *proof);
/* A proof's header: what it claims of its tree, as its encoding's keys hold it. A root binds none
 * of it, so a verifier compares it with what it knows (merklize_proof_verify_pinned does; see
 * merklize_proof_expectations). Each answers 0 or "" for NULL. */
MERKLIZE_API merklize_proof_kind merklize_proof_get_kind(const merklize_proof *proof);
/* Leaves of the tree the proof is about (the new tree's for a consistency proof). */
MERKLIZE_API uint64_t merklize_proof_leaf_count(const merklize_proof *proof);
/* The node hash, by the name merklize_tree_config.hash takes ("sha256", "poseidon2-babybear"...).
 */
MERKLIZE_API const char *merklize_proof_hash(const merklize_proof *proof);
/* The shape, "promote" or "zero". */
MERKLIZE_API const char *merklize_proof_shape(const merklize_proof *proof);
/* Levels from the leaves to the root: the fixed depth or the natural one of a binary tree (the
 * new tree's for a consistency proof), the height of a k-ary tree (0 where its arity is not one
 * a k-ary tree takes). */
MERKLIZE_API uint32_t merklize_proof_depth(const merklize_proof *proof);
/* Children per node: 2 for a binary tree's proofs, k for a k-ary tree's. */
MERKLIZE_API uint32_t merklize_proof_arity(const merklize_proof *proof);
/* 1, and *length receives the list's length, for the proof of an SSZ list element (its last node
 * the length chunk); else 0, *length untouched. */
MERKLIZE_API int merklize_proof_mixed_length(const merklize_proof *proof, uint64_t *length);
/* The proven leaf indices (one for inclusion and k-ary inclusion proofs, sorted for
 * multiproofs of either arity; the old size for a consistency proof), in the proof's own
 * memory. */
MERKLIZE_API merklize_status merklize_proof_indices(const merklize_proof *proof,
                                                    const uint64_t **indices, size_t *count);
/* The nodes the proof carries (siblings, from the leaves up), 32 bytes each, in the proof's own
 * memory. For a k-ary proof: every level's siblings, back to back; for a k-ary multiproof, its
 * nodes in proof order (docs/PROOFS.md). */
MERKLIZE_API merklize_status merklize_proof_nodes(const merklize_proof *proof,
                                                  const uint8_t **nodes, size_t *count);

MERKLIZE_API merklize_status merklize_proof_encode(const merklize_proof *proof,
                                                   merklize_encoding encoding,
                                                   merklize_bytes **encoded);
/* Any kind of proof; the kind is read from the encoding. Untrusted input is checked: a malformed
 * or oversized proof is MERKLIZE_ERROR_DECODE with the place and the reason. */
MERKLIZE_API merklize_status merklize_proof_decode(const void *data, size_t size,
                                                   merklize_encoding encoding,
                                                   merklize_proof **proof);

/* Verifies an inclusion, multi, k-ary or k-ary multi proof: `leaves` holds leaf_count leaves of
 * 32 bytes, one per proven index in the order of merklize_proof_indices. *valid receives 1 or 0;
 * when 0, merklize_last_error() says why (a proof that does not verify is not a failed call:
 * the status is MERKLIZE_OK). A leaf or a node of a hash over field elements with a limb of p
 * or more is refused (0), naming it and the limb. For a consistency proof use
 * merklize_verify_consistency.
 * This checks the proof against its own header, which the proof chose: a proof relabelled with
 * another hash, shape, depth, arity or leaf count can verify where its nodes drive the same
 * computation (docs/PROOFS.md, "What a proof binds": a sha256 zero-shape tree's inner node passes
 * as a leaf of a promote proof). A verifier that knows its tree uses merklize_proof_verify_pinned.
 */
MERKLIZE_API merklize_status merklize_proof_verify(const merklize_proof *proof,
                                                   const uint8_t *leaves, size_t leaf_count,
                                                   const uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                   int *valid);
MERKLIZE_API merklize_status merklize_verify_consistency(
    const merklize_proof *proof, const uint8_t old_root[MERKLIZE_DIGEST_SIZE],
    const uint8_t new_root[MERKLIZE_DIGEST_SIZE], int *valid);

/* What the verifier knows of the tree apart from the proof (C++'s merklize::proof_expectations):
 * a proof whose header claims another value is refused (*valid 0, merklize_last_error() naming
 * the member). Each member as merklize_proof_expectations_init leaves it pins nothing. Pin all
 * that you know: the tree's configuration gives hash, shape, depth and arity, a signed tree head
 * or a header the leaf count. */
typedef struct merklize_proof_expectations {
  uint32_t size;       /* sizeof(merklize_proof_expectations), set by _init */
  int32_t kind;        /* 0: any; else the merklize_proof_kind the proof must be */
  const char *hash;    /* NULL: any; else the node hash's name, as merklize_tree_config.hash */
  const char *shape;   /* NULL: any; else "promote" or "zero" */
  int32_t depth;       /* -1: any; else the root's depth, as merklize_proof_depth gives it */
  uint32_t arity;      /* 0: any; else 2 (a binary tree) or the k of a k-ary tree */
  uint64_t leaf_count; /* 0: any; else the tree's leaves (the new tree's for consistency) */
} merklize_proof_expectations;

/* Pins nothing: kind 0, hash and shape NULL, depth -1, arity 0, leaf_count 0. */
MERKLIZE_API void merklize_proof_expectations_init(merklize_proof_expectations *expect);
/* merklize_proof_verify with the verifier's pins: *valid 0 with the reason where the proof's
 * header differs from a pinned member (checked first), else as merklize_proof_verify. An unknown
 * hash or shape name, or a struct whose size is not this header's, is MERKLIZE_ERROR_ARGUMENT. */
MERKLIZE_API merklize_status merklize_proof_verify_pinned(const merklize_proof *proof,
                                                          const uint8_t *leaves, size_t leaf_count,
                                                          const uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                          const merklize_proof_expectations *expect,
                                                          int *valid);
/* merklize_verify_consistency with the verifier's pins (leaf_count: the new tree's size; the old
 * size is merklize_proof_indices' one index, to compare with the old tree head's). */
MERKLIZE_API merklize_status merklize_verify_consistency_pinned(
    const merklize_proof *proof, const uint8_t old_root[MERKLIZE_DIGEST_SIZE],
    const uint8_t new_root[MERKLIZE_DIGEST_SIZE], const merklize_proof_expectations *expect,
    int *valid);

/* ---------------------------------------------------------------------------------------------
 * Hashing
 * ------------------------------------------------------------------------------------------- */

typedef enum merklize_blake3_kind {
  MERKLIZE_BLAKE3_HASH = 0,      /* BLAKE3's plain hash */
  MERKLIZE_BLAKE3_KEYED = 1,     /* keyed_hash with a 32-byte key */
  MERKLIZE_BLAKE3_DERIVE_KEY = 2 /* derive_key with a context string; the input is the material */
} merklize_blake3_kind;

typedef struct merklize_blake3_mode {
  merklize_blake3_kind kind;
  const uint8_t *key;  /* KEYED: 32 bytes */
  const char *context; /* DERIVE_KEY: the context string */
} merklize_blake3_mode;

/* Full BLAKE3 of a source on the device (b3sum's result): out_size bytes of output (BLAKE3's
 * extendable output; 32 is the usual digest), made in out_size bytes of scratch memory and
 * copied to `out` once the call has succeeded. `mode` NULL: the plain hash. */
MERKLIZE_API merklize_status merklize_blake3(merklize_device *device,
                                             const merklize_blake3_mode *mode,
                                             const merklize_source *source, uint8_t *out,
                                             size_t out_size);

/* hashtree's layer: `count` 64-byte blocks in, `count` SHA-256 digests out (the level above a
 * level of SHA-256 nodes). digests may overlap chunks: a level can be hashed in place, its
 * parents written over its first half. */
MERKLIZE_API merklize_status merklize_sha256_layer(merklize_device *device, uint8_t *digests,
                                                   const uint8_t *chunks, uint64_t count);

/* hashtree's call (OffchainLabs/hashtree's hashtree_hash, which Lodestar, Prysm and Nimbus link):
 * `count` 64-byte blocks at `input`, each two 32-byte nodes, hashed with SHA-256 into `count`
 * 32-byte digests at `output`, on the calling thread by the host engine's SHA-256 (the CPU's SHA
 * extensions where it has them), no device. hashtree's contract exactly: no status, nothing
 * checked; `output` holds count * 32 bytes, `input` count * 64; count 0 does nothing; `output` may
 * be `input` (a level hashed in place, its parents over its first half). <merklize/hashtree.h>
 * is hashtree.h over it, so a program written for hashtree builds against libmerklize
 * unchanged. */
MERKLIZE_API void merklize_hashtree_hash(uint8_t *output, const uint8_t *input, uint64_t count);

/* BLAKE3 of data given in pieces, on the host (hashlib's way: Python's merklize.blake3, Go's
 * hash.Hash): the plain hash, keyed (mode->key) or derive_key (mode->context) as
 * merklize_blake3's `mode`. A hasher's calls are serialised; it is freed by
 * merklize_blake3_hasher_free. */
typedef struct merklize_blake3_hasher merklize_blake3_hasher;
MERKLIZE_API merklize_status merklize_blake3_hasher_create(const merklize_blake3_mode *mode,
                                                           merklize_blake3_hasher **hasher);
MERKLIZE_API merklize_status merklize_blake3_hasher_update(merklize_blake3_hasher *hasher,
                                                           const void *data, size_t size);
/* out_size bytes of the extendable output of what was given so far, from byte `seek` of it
 * (0: the digest's first byte); the hasher takes more input after it. */
MERKLIZE_API merklize_status merklize_blake3_hasher_finalize(merklize_blake3_hasher *hasher,
                                                             uint64_t seek, uint8_t *out,
                                                             size_t out_size);
/* A second hasher in the same state (hashlib's copy()). */
MERKLIZE_API merklize_status merklize_blake3_hasher_copy(merklize_blake3_hasher *hasher,
                                                         merklize_blake3_hasher **copy);
/* Back to the state of no input, in its mode. */
MERKLIZE_API merklize_status merklize_blake3_hasher_reset(merklize_blake3_hasher *hasher);
MERKLIZE_API void merklize_blake3_hasher_free(merklize_blake3_hasher *hasher);

/* RFC 6962 leaf hashes, SHA-256(0x00 || entry), of the entries of a source: `framing` "lines"
 * (each line an entry, without its newline) or "length-prefixed" (each entry after its length,
 * 4 bytes big-endian). *leaves receives count x 32 bytes. */
MERKLIZE_API merklize_status merklize_log_leaves(merklize_device *device,
                                                 const merklize_source *source, const char *framing,
                                                 merklize_bytes **leaves);

/* ---------------------------------------------------------------------------------------------
 * Formats: dm-verity, fs-verity, Bao
 * ------------------------------------------------------------------------------------------- */

typedef struct merklize_verity_config {
  uint32_t size;            /* sizeof(merklize_verity_config), set by merklize_verity_config_init */
  uint32_t data_block_size; /* dm-verity: 4096 by default */
  uint32_t hash_block_size; /* dm-verity: 4096 by default; fs-verity's one block size */
  const uint8_t *salt;      /* dm-verity: up to 256 bytes; fs-verity: up to 32 */
  size_t salt_size;
} merklize_verity_config;

MERKLIZE_API void merklize_verity_config_init(merklize_verity_config *config);

/* dm-verity's hash tree of a source (as `veritysetup format --no-superblock` writes it to the
 * hash device) and its root hash. *hash_tree may be NULL to get the root alone. */
MERKLIZE_API merklize_status merklize_dm_verity(merklize_device *device,
                                                const merklize_verity_config *config,
                                                const merklize_source *source,
                                                uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                merklize_bytes **hash_tree);

/* fs-verity's file digest (as `fsverity digest` prints it, SHA-256) and its Merkle tree (as
 * `fsverity digest --out-merkle-tree` writes it); hash_block_size is the block size. *tree may be
 * NULL. */
MERKLIZE_API merklize_status merklize_fs_verity(merklize_device *device,
                                                const merklize_verity_config *config,
                                                const merklize_source *source,
                                                uint8_t file_digest[MERKLIZE_DIGEST_SIZE],
                                                merklize_bytes **tree);

/* Bao's outboard encoding of a source (as `bao encode --outboard` writes it) and its root, the
 * BLAKE3 hash of the data. *outboard may be NULL. */
MERKLIZE_API merklize_status merklize_bao_outboard(merklize_device *device,
                                                   const merklize_source *source,
                                                   uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                   merklize_bytes **outboard);

/* ---------------------------------------------------------------------------------------------
 * Commitments: OpenZeppelin's StandardMerkleTree, Bitcoin, Filecoin (docs/FORMATS.md)
 * ------------------------------------------------------------------------------------------- */

/* OpenZeppelin's StandardMerkleTree (@openzeppelin/merkle-tree) of a JSON text of `size` bytes:
 * its dump, as tree.dump() gives it, or {"leafEncoding": [types], "values": [[...], ...]}.
 * sort_leaves: nonzero sorts the leaves by hash (OpenZeppelin's default), 0 keeps the values'
 * order; a dump's tree places its leaves itself (and is checked: "Merkle tree is invalid").
 * root receives the root's 32 bytes (printed as OpenZeppelin prints it: 0x, then hex); *dump, if
 * dump is not NULL, the tree's dump as JSON.stringify writes it. Malformed JSON, unknown types
 * and values that do not fit their types are MERKLIZE_ERROR_DECODE, naming the place
 * ("values"[3][1]) and the reason. */
MERKLIZE_API merklize_status merklize_oz_standard_tree(merklize_device *device, const char *json,
                                                       size_t size, int sort_leaves,
                                                       uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                       merklize_bytes **dump);

/* The proof of value indices[0] (its place in "values") of the same tree, as JSON:
 * {"value": [...], "leaf": "0x..", "proof": ["0x..", ...]}; with count > 1, the multiproof of
 * the values indices[0..count), as OpenZeppelin's getMultiProof returns it: {"leaves": [values],
 * "proof": [...], "proofFlags": [...]}. An index past the values, or one given twice, is
 * MERKLIZE_ERROR_ARGUMENT. */
MERKLIZE_API merklize_status merklize_oz_standard_proof(merklize_device *device, const char *json,
                                                        size_t size, int sort_leaves,
                                                        const uint64_t *indices, size_t count,
                                                        merklize_bytes **proof);

/* Bitcoin's merkle root of a block's txids, read from a source: 32 bytes each in internal byte
 * order (as SHA-256d writes them), or, with display_order nonzero, hex lines as block explorers
 * and bitcoin-cli print them (byte-reversed), and then root receives the root reversed too, as
 * they print it. *mutated, if not NULL, receives 1 where a level pairs two equal nodes
 * (CVE-2012-2459: Bitcoin Core rejects such a block; a shorter list has the same root), else 0.
 * No txid, a size that is not whole txids and a line that is not a txid are
 * MERKLIZE_ERROR_ARGUMENT. */
MERKLIZE_API merklize_status merklize_bitcoin_root(merklize_device *device,
                                                   const merklize_source *source, int display_order,
                                                   uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                   int *mutated);

/* Txid `index`'s merkle branch in the same tree, as JSON, in the byte order of the input:
 * {"txid": hex, "pos": index, "merkle": [sibling hex, from the txid up], "root": hex}. */
MERKLIZE_API merklize_status merklize_bitcoin_proof(merklize_device *device,
                                                    const merklize_source *source,
                                                    int display_order, uint64_t index,
                                                    merklize_bytes **proof);

/* Filecoin's piece commitment (CommP, the root of tree_d) of the data of a source: Fr32-padded,
 * zero-padded to a power-of-two piece of at least 128 bytes, SHA-256 truncated to 254 bits.
 * *padded_size, if not NULL, receives the padded piece's size in bytes. No data is
 * MERKLIZE_ERROR_ARGUMENT. */
MERKLIZE_API merklize_status merklize_filecoin_commitment(merklize_device *device,
                                                          const merklize_source *source,
                                                          uint8_t commitment[MERKLIZE_DIGEST_SIZE],
                                                          uint64_t *padded_size);

/* The piece CID of a commitment, as Lotus prints it ("baga6ea4sea...": CIDv1,
 * fil-commitment-unsealed, sha2-256-trunc254-padded, base32), NUL-terminated, into `cid` of
 * cid_size bytes: MERKLIZE_PIECE_CID_SIZE bytes hold it. */
#define MERKLIZE_PIECE_CID_SIZE 65
MERKLIZE_API merklize_status merklize_filecoin_piece_cid(
    const uint8_t commitment[MERKLIZE_DIGEST_SIZE], char *cid, size_t cid_size);

/* ---------------------------------------------------------------------------------------------
 * Trees kept on the device and updated in place
 * ------------------------------------------------------------------------------------------- */

/* A tree of 32-byte leaves built once on the builder's device and kept there: a batch of leaf
 * updates writes its leaves and recomputes only the nodes above them (docs/ARCHITECTURE.md,
 * "Trees kept on the device and changed in place"). The builder's configuration gives the tree:
 * any node hash, shape promote or zero, a fixed depth; or an arity k above 2 (a k-ary tree, as
 * merklize_build's), which every merklize_device_tree_* call takes (_prove giving a
 * MERKLIZE_PROOF_KARY, merklize_prove's; _update_proved a MERKLIZE_PROOF_KARY_MULTI,
 * merklize_prove_multi's; update batches, _update_cl, _append_cl, snapshots and rollbacks as a
 * binary tree's) but one, which refuses it (MERKLIZE_ERROR_ARGUMENT naming the arity):
 * _prove_consistency (its proofs are RFC 6962's, of binary trees); 32-byte leaves (leaf_size 0)
 * and no mix_in_length only. The tree owns its device memory and its own queue: the builder and the
 * device may be freed before it. Its calls are serialised (a mutex), so it may be used from
 * several threads.
 *
 * Every call on the tree is all or nothing. A call that fails (a refusal, an OpenCL call that
 * fails, host memory that runs out) before the device began to change the tree leaves it bit for
 * bit as it was: leaves, levels, leaf count, depth and root, as every later call sees them
 * (an append that failed while moving the tree to larger buffers included: the old ones are
 * kept). One that fails after (the leaves written, levels recomputed, a rollback's copies begun)
 * cannot say what the device holds: the tree is then unusable, and every later call on it but
 * merklize_device_tree_free is refused, MERKLIZE_ERROR_UNUSABLE with a message naming the call
 * that failed and why ("the tree is unusable after a failed merklize_device_tree_append
 * (...: clEnqueueNDRangeKernel failed: ...): free it and build it again"); _leaf_count and _depth
 * give 0. Free it and build it again from leaves the caller keeps (a rollback, refused too,
 * cannot mend it). */
typedef struct merklize_device_tree merklize_device_tree;

/* The tree of `size` bytes of leaves in host memory (size a multiple of 32, at least one leaf, at
 * most the leaves the tree may hold: 2^32, or 2^depth for a fixed depth below 32), copied to the
 * device; the caller's bytes are only read. */
MERKLIZE_API merklize_status merklize_device_tree_create(merklize_builder *builder,
                                                         const void *leaves, uint64_t size,
                                                         merklize_device_tree **tree);
MERKLIZE_API void merklize_device_tree_free(merklize_device_tree *tree);
/* The root after the last update (at the fixed depth where the configuration has one). */
MERKLIZE_API merklize_status merklize_device_tree_root(merklize_device_tree *tree,
                                                       uint8_t root[MERKLIZE_DIGEST_SIZE]);
/* The leaf count and top stored level now (an append grows them). */
MERKLIZE_API uint64_t merklize_device_tree_leaf_count(const merklize_device_tree *tree);
/* The top stored level (levels 0..depth are on the device), as merklize_tree_depth. */
MERKLIZE_API uint32_t merklize_device_tree_depth(const merklize_device_tree *tree);

/* Leaf indices[k] becomes leaves[k * 32 .. k * 32 + 32) for k < count; root receives the new
 * root (root may be NULL). Within one batch a repeated index takes its last value; count 0
 * changes nothing and gives the root. A refused batch (an index at or past the leaf count, a NULL
 * pointer where count > 0, a count past what a batch holds: fewer than 2^32 updates, 2^32 at
 * arity k, refused before the batch is read) is MERKLIZE_ERROR_ARGUMENT and leaves the tree as it
 * was: it is checked before the tree is written. */
MERKLIZE_API merklize_status merklize_device_tree_update(merklize_device_tree *tree,
                                                         const uint64_t *indices,
                                                         const void *leaves, uint64_t count,
                                                         uint8_t root[MERKLIZE_DIGEST_SIZE]);
/* The same, and *proof receives the multiproof (MERKLIZE_PROOF_MULTI; at arity k a
 * MERKLIZE_PROOF_KARY_MULTI) of the updated leaves in the new tree, merklize_prove_multi's of a
 * tree built over the new leaves (indices sorted, once each). count 0 gives a proof of no leaves
 * (merklize_proof_indices' count 0). A refused batch changes neither the tree nor *proof. */
MERKLIZE_API merklize_status merklize_device_tree_update_proved(merklize_device_tree *tree,
                                                                const uint64_t *indices,
                                                                const void *leaves, uint64_t count,
                                                                uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                                merklize_proof **proof);
/* The inclusion proof of leaf `index` in the tree as it is now (merklize_prove's). */
MERKLIZE_API merklize_status merklize_device_tree_prove(merklize_device_tree *tree, uint64_t index,
                                                        merklize_proof **proof);
/* A log's append: `count` leaves (count x 32 bytes at `leaves`) go after the last leaf, and the
 * tree of the old leaves stays a prefix of the new one (RFC 9162); only the new leaves' paths
 * are recomputed, the device memory growing geometrically. root receives the new root (root may
 * be NULL); count 0 changes nothing and gives the root. Every configuration a device tree keeps
 * can append; what it may hold limits it: with a fixed depth d < 32 at most 2^d leaves, else
 * 2^32. An append past that, or NULL leaves where count > 0, is MERKLIZE_ERROR_ARGUMENT naming
 * the sizes and the limit, and leaves the tree as it was: it is checked before the device is
 * asked anything. merklize_device_tree_leaf_count and _depth give the grown tree's. */
MERKLIZE_API merklize_status merklize_device_tree_append(merklize_device_tree *tree,
                                                         const void *leaves, uint64_t count,
                                                         uint8_t root[MERKLIZE_DIGEST_SIZE]);
/* merklize_device_tree_append and _update with their leaves (and indices) in the caller's own
 * device buffers, read where they are: nothing of theirs crosses the bus. The buffers must be of
 * the tree's OpenCL context (its builder's device opened with merklize_device_open_cl on the
 * caller's context) and hold count x 32 bytes of leaves from their start (and count uint64_t
 * indices, little-endian as the device's). The device waits for the wait_count events of `wait`
 * (the caller's writes of the buffers, on any queue of that context) before it reads them; the
 * call returns once it is done with them, so the caller may write or free them then. *done, if
 * not NULL, receives a retained event of the tree's queue that completes after `wait` and the
 * call's commands (by the time the call returns where count > 0): release it with
 * clReleaseEvent. root receives the new root (root may be NULL); count 0 reads no buffer (which
 * may then be NULL) and gives the root.
 *
 * Refused, as MERKLIZE_ERROR_ARGUMENT with the tree as it was: a NULL buffer where count > 0, a
 * NULL `wait` (or event in it) where wait_count > 0, a buffer of another context or smaller than
 * count leaves (or indices), an append past what the tree may hold (as
 * merklize_device_tree_append), an index at or past the leaf count (found on the device, which
 * then writes nothing: the refusal names it). A tree of arity k plans an update on the host, as
 * its host-memory updates: it reads the indices back (count x 8 bytes, after `wait`) and refuses
 * an index out of range there; the leaves stay on the device, each index's last value gathered
 * there from the caller's buffer. Leaves of a hash that takes field elements only
 * (poseidon2) are read back and checked on the host before anything is written, as the host
 * calls check them; other hashes' leaves are never read back. */
MERKLIZE_API merklize_status merklize_device_tree_append_cl(
    merklize_device_tree *tree, struct _cl_mem *leaves, uint64_t count, uint32_t wait_count,
    struct _cl_event *const *wait, struct _cl_event **done, uint8_t root[MERKLIZE_DIGEST_SIZE]);
MERKLIZE_API merklize_status merklize_device_tree_update_cl(
    merklize_device_tree *tree, struct _cl_mem *indices, struct _cl_mem *leaves, uint64_t count,
    uint32_t wait_count, struct _cl_event *const *wait, struct _cl_event **done,
    uint8_t root[MERKLIZE_DIGEST_SIZE]);
/* That the tree of its first old_size leaves is a prefix of the tree as it is now: *proof
 * receives the consistency proof (MERKLIZE_PROOF_CONSISTENCY), merklize_prove_consistency's of
 * a tree built over the same leaves bit for bit, its few nodes read from the device; check it
 * with merklize_verify_consistency against the root the tree had at old_size leaves. Trees of
 * shape promote without a fixed depth, of any hash but blake3-parent (as
 * merklize_prove_consistency); others, and old_size past the leaf count, are
 * MERKLIZE_ERROR_ARGUMENT with the reason. old_size 0 or the leaf count gives a proof of no
 * nodes. */
MERKLIZE_API merklize_status merklize_device_tree_prove_consistency(merklize_device_tree *tree,
                                                                    uint64_t old_size,
                                                                    merklize_proof **proof);
/* Level `level`'s node count (level 0: the leaves; up to merklize_device_tree_depth). */
MERKLIZE_API merklize_status merklize_device_tree_level_size(merklize_device_tree *tree,
                                                             uint32_t level, uint64_t *count);
/* Nodes first .. first + count - 1 of level `level` read back from the device into `nodes`
 * (count x 32 bytes, written only on success). */
MERKLIZE_API merklize_status merklize_device_tree_read_level(merklize_device_tree *tree,
                                                             uint32_t level, uint64_t first,
                                                             uint64_t count, uint8_t *nodes);

/* Update batches filled in place. A batch is page-locked memory the tree makes in its context:
 * the caller writes its indices and leaves there, and merklize_device_tree_update_batch writes
 * them to the device straight from it, nothing copied on the host first (merklize_device_tree_
 * update copies a batch into page-locked staging before the bus moves it: for 1% of 2^25 leaves,
 * 13.4 MB, most of its time). A batch is reused from call to call, may be used with any device
 * tree of the same device, and may be freed before or after them. Its memory must not be
 * written while an update reads it (calls on one batch from several threads are the caller's to
 * order). */
typedef struct merklize_update_batch merklize_update_batch;
/* A batch of room for `capacity` updates (1 to 2^32 - 1; else MERKLIZE_ERROR_ARGUMENT), in
 * page-locked memory of the tree's device: 40 bytes an update. */
MERKLIZE_API merklize_status merklize_device_tree_batch_create(merklize_device_tree *tree,
                                                               uint64_t capacity,
                                                               merklize_update_batch **batch);
MERKLIZE_API void merklize_update_batch_free(merklize_update_batch *batch);
/* The batch's capacity (0 for NULL). */
MERKLIZE_API uint64_t merklize_update_batch_capacity(const merklize_update_batch *batch);
/* Its `capacity` indices (uint64, native order) and capacity x 32 bytes of leaves, the caller's
 * to write: update k is leaf indices[k] becoming leaves[k * 32 .. k * 32 + 32). The pointers
 * stay valid while the batch lives (NULL for NULL). */
MERKLIZE_API uint64_t *merklize_update_batch_indices(merklize_update_batch *batch);
MERKLIZE_API uint8_t *merklize_update_batch_leaves(merklize_update_batch *batch);
/* merklize_device_tree_update of the batch's first `count` updates, the same tree bit for bit
 * (a repeated index takes its last value; count 0 changes nothing and gives the root); root
 * receives the new root (root may be NULL). The indices are checked on the device (at arity k
 * on the host, which plans the update): one at or past the leaf count is
 * MERKLIZE_ERROR_ARGUMENT naming it, and the tree is as it was. A count
 * past the batch's capacity, a batch of another device, or a NULL batch is
 * MERKLIZE_ERROR_ARGUMENT, refused before the device is asked anything. */
MERKLIZE_API merklize_status merklize_device_tree_update_batch(merklize_device_tree *tree,
                                                               const merklize_update_batch *batch,
                                                               uint64_t count,
                                                               uint8_t root[MERKLIZE_DIGEST_SIZE]);

/* Snapshots: a copy of a device tree as it is, kept on its device (the tree's device memory once
 * more: leaves, levels and the room appends left), and a rollback that restores the tree to it
 * bit for bit (leaves, levels, leaf count, root, proofs), undoing the updates and appends made
 * since. The copies are device to device. A snapshot may be rolled back to any number of times
 * and freed before or after its tree. */
typedef struct merklize_tree_snapshot merklize_tree_snapshot;
/* *snapshot receives a snapshot of the tree as it is now. A device without room for the copy is
 * refused (MERKLIZE_ERROR_OPENCL or MERKLIZE_ERROR_ARGUMENT naming the bytes), the tree
 * unchanged. */
MERKLIZE_API merklize_status merklize_device_tree_snapshot(merklize_device_tree *tree,
                                                           merklize_tree_snapshot **snapshot);
MERKLIZE_API void merklize_tree_snapshot_free(merklize_tree_snapshot *snapshot);
/* The leaf count the tree had when the snapshot was taken (0 for NULL). */
MERKLIZE_API uint64_t merklize_tree_snapshot_leaf_count(const merklize_tree_snapshot *snapshot);
/* The tree as it was when `snapshot` was taken; root receives that root (root may be NULL). A
 * snapshot of another tree (of any arity, the same shape or not), or NULL, is
 * MERKLIZE_ERROR_ARGUMENT and changes nothing. */
MERKLIZE_API merklize_status merklize_device_tree_rollback(merklize_device_tree *tree,
                                                           const merklize_tree_snapshot *snapshot,
                                                           uint8_t root[MERKLIZE_DIGEST_SIZE]);

/* ---------------------------------------------------------------------------------------------
 * Many small trees at once
 * ------------------------------------------------------------------------------------------- */

/* The roots of many trees of tree_size leaves each, built at once (a launch a level over all of
 * them): `leaves` holds leaves_size bytes, consecutive runs of tree_size 32-byte leaves
 * (leaves_size a multiple of 32 * tree_size, at least one tree); tree k is the builder's binary
 * tree (node hash, shape, fixed depth) of leaves [k * tree_size, (k + 1) * tree_size), its root
 * bit for bit merklize_root's of those leaves. `roots` receives the B = leaves_size / (32 *
 * tree_size) roots, 32 bytes each, tree after tree: roots_size must be at least 32 * B. The
 * builder must build binary trees of 32-byte leaves (arity 2, no leaf_size, no mix_in_length). */
MERKLIZE_API merklize_status merklize_roots_many(merklize_builder *builder, const void *leaves,
                                                 uint64_t leaves_size, uint64_t tree_size,
                                                 uint8_t *roots, uint64_t roots_size);

/* ---------------------------------------------------------------------------------------------
 * Sparse Merkle trees
 * ------------------------------------------------------------------------------------------- */

/* A sparse Merkle tree of 2^depth leaves addressed by key, almost all empty, kept on a device and
 * changed by batches (docs/LIBRARY.md, "Sparse Merkle trees", gives the rule): a key is a
 * depth-bit number written as 32 bytes big-endian (its bits at and above depth zero), its path
 * read from bit depth-1 down to bit 0 (0 = left); a leaf holds its 32-byte value, the empty leaf
 * is 32 zero bytes (so a zero value deletes a key); node = the hash of the two children; an empty
 * subtree of height h has the root z[h], z[0] = 32 zero bytes, z[h] = node(z[h-1], z[h-1]). The
 * tree owns its device memory and its own queue (the device may be freed before it); its calls
 * are serialised (a mutex). */
typedef struct merklize_sparse_tree merklize_sparse_tree;

/* The empty tree of node hash `hash` (NULL: "blake3"; any of merklize_hash_names()) and `depth`
 * (1 to 256 bits of key) on `device`. */
MERKLIZE_API merklize_status merklize_sparse_tree_create(merklize_device *device, const char *hash,
                                                         uint32_t depth,
                                                         merklize_sparse_tree **tree);
MERKLIZE_API void merklize_sparse_tree_free(merklize_sparse_tree *tree);
/* The root after the last batch (the empty tree's: z[depth]). */
MERKLIZE_API merklize_status merklize_sparse_tree_root(merklize_sparse_tree *tree,
                                                       uint8_t root[MERKLIZE_DIGEST_SIZE]);
/* The number of keys holding a nonzero value. */
MERKLIZE_API uint64_t merklize_sparse_tree_size(const merklize_sparse_tree *tree);
/* Key k (keys[k * 32 .. k * 32 + 32)) takes values[k * 32 .. k * 32 + 32) for k < count (a zero
 * value deletes it; a repeated key takes its last value); root receives the new root (root may
 * be NULL). count 0 changes nothing and gives the root. A key with bits at or above the depth,
 * or NULL keys or values where count > 0, is MERKLIZE_ERROR_ARGUMENT and changes nothing: the
 * batch is checked before the tree is written. */
MERKLIZE_API merklize_status merklize_sparse_tree_update(merklize_sparse_tree *tree,
                                                         const uint8_t *keys, const uint8_t *values,
                                                         uint64_t count,
                                                         uint8_t root[MERKLIZE_DIGEST_SIZE]);
/* The value `key` holds (32 zero bytes: absent). */
MERKLIZE_API merklize_status merklize_sparse_tree_value(merklize_sparse_tree *tree,
                                                        const uint8_t key[MERKLIZE_DIGEST_SIZE],
                                                        uint8_t value[MERKLIZE_DIGEST_SIZE]);
/* The proof of `key` under the root now: value receives its value (zero: the proof shows it
 * absent), *siblings the `depth` siblings of its path, 32 bytes each, bottom up (as
 * merklize_bytes: depth x 32 bytes). */
MERKLIZE_API merklize_status merklize_sparse_tree_prove(merklize_sparse_tree *tree,
                                                        const uint8_t key[MERKLIZE_DIGEST_SIZE],
                                                        uint8_t value[MERKLIZE_DIGEST_SIZE],
                                                        merklize_bytes **siblings);
/* Checks a sparse proof on the host (no device): *valid receives 1 where `key` holding `value`
 * (absent, for a zero value) with the siblings (siblings_size = depth x 32 bytes, bottom up)
 * leads to `root` in the tree of `hash` and `depth`, else 0 with the reason in
 * merklize_last_error() (the status is MERKLIZE_OK: a proof that does not verify, a key past the
 * depth or a value or sibling with a limb of p or more under a hash over field elements
 * included, is not a failed call). An unknown hash, a depth outside 1..256 and a
 * siblings_size of another length are MERKLIZE_ERROR_ARGUMENT. */
MERKLIZE_API merklize_status merklize_sparse_verify(const char *hash, uint32_t depth,
                                                    const uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                    const uint8_t key[MERKLIZE_DIGEST_SIZE],
                                                    const uint8_t value[MERKLIZE_DIGEST_SIZE],
                                                    const uint8_t *siblings, size_t siblings_size,
                                                    int *valid);

/* ---------------------------------------------------------------------------------------------
 * Matrix commitments (Plonky3's MerkleTreeMmcs)
 * ------------------------------------------------------------------------------------------- */

/* A commitment to the rows of one or several matrices of field elements, bit for bit Plonky3's
 * MerkleTreeMmcs (docs/LIBRARY.md, "Matrix commitments", gives the rules): a leaf is the
 * Poseidon2 sponge of row r of every tallest matrix, concatenated in the matrices' order; a
 * matrix of smaller height enters at the layer of its height; the commitment is a cap of up to
 * 2^cap_height digests. The hashes: "poseidon2-babybear" and "poseidon2-koalabear" (Poseidon2
 * width 16; elements are 4-byte little-endian integers below p) and "poseidon2-goldilocks"
 * (width 8; 8-byte elements); every other hash, poseidon2-bn254 included, is
 * MERKLIZE_ERROR_ARGUMENT. Digests are 32 bytes (8 x u32 or 4 x u64 little-endian). */

/* A row-major matrix: height x width elements at `data` (element size: merklize_mmcs_element_size;
 * data may be NULL where there are none). */
typedef struct merklize_matrix {
  const void *data;
  uint64_t height;
  uint64_t width;
} merklize_matrix;

/* A matrix's dimensions, all a verifier knows of it. */
typedef struct merklize_matrix_shape {
  uint64_t height;
  uint64_t width;
} merklize_matrix_shape;

/* The commitment: its cap and, on the host, the matrices (copied) and its digest layers (every
 * one, or those from drop_layers up: merklize_mmcs_commit_dropping), from which it opens rows
 * without a device. Read-only once made: it may be read from several threads,
 * and the device may be freed before it. */
typedef struct merklize_mmcs merklize_mmcs;

/* *size receives the bytes of one element of `hash`'s field: 4 or 8. */
MERKLIZE_API merklize_status merklize_mmcs_element_size(const char *hash, size_t *size);

/* The commitment to matrices[0 .. matrix_count) with `hash` and a cap of cap_height (as
 * Plonky3's: min(cap_height, depth) layers below the root; 0 gives the root alone), computed on
 * `device`. The caller's matrices are only read, and copied. Refused (MERKLIZE_ERROR_ARGUMENT,
 * before the device is used, naming the matrix, row and column or height): no matrix, every
 * height 0, a height Plonky3 refuses beside the tallest (each height must be ceil(tallest / 2^k)
 * for its power-of-two bucket k: 7 beside 8 is refused), an element at or above p. A matrix
 * entering above the cap's layer is not bound by the cap (see merklize_mmcs_verify). */
MERKLIZE_API merklize_status merklize_mmcs_commit(merklize_device *device, const char *hash,
                                                  const merklize_matrix *matrices,
                                                  size_t matrix_count, uint32_t cap_height,
                                                  merklize_mmcs **mmcs);
/* merklize_mmcs_commit keeping the digest layers from drop_layers up only (about 2^-drop_layers
 * of them: the lowest layers hold most): merklize_mmcs_open recomputes the siblings below from the
 * matrices (the 2^drop_layers rows of the index's block), the same openings. drop_layers above
 * the cap's layer (merklize_mmcs_path_length) is refused (MERKLIZE_ERROR_ARGUMENT). */
MERKLIZE_API merklize_status merklize_mmcs_commit_dropping(
    merklize_device *device, const char *hash, const merklize_matrix *matrices, size_t matrix_count,
    uint32_t cap_height, uint32_t drop_layers, merklize_mmcs **mmcs);
MERKLIZE_API void merklize_mmcs_free(merklize_mmcs *mmcs);
/* The cap's digest count (min(2^cap_height, the cap layer's length)). */
MERKLIZE_API uint64_t merklize_mmcs_cap_count(const merklize_mmcs *mmcs);
/* The tallest matrix's height: row indices below it open. */
MERKLIZE_API uint64_t merklize_mmcs_height(const merklize_mmcs *mmcs);
/* The siblings of an opening's path: the layers below the cap's. */
MERKLIZE_API uint32_t merklize_mmcs_path_length(const merklize_mmcs *mmcs);
/* The bytes of one opening's rows: the sum of the widths times the element size. */
MERKLIZE_API uint64_t merklize_mmcs_row_size(const merklize_mmcs *mmcs);
/* The cap's digests, 32 bytes each, into `cap` (cap_size at least 32 x merklize_mmcs_cap_count). */
MERKLIZE_API merklize_status merklize_mmcs_cap(const merklize_mmcs *mmcs, uint8_t *cap,
                                               size_t cap_size);
/* The openings of rows indices[0 .. count) (Plonky3's open_batch, one index at a time): *rows
 * receives, index after index, each matrix's opened row (matrix after matrix: row index >> k of a
 * matrix entering k layers up), merklize_mmcs_row_size bytes an index; *paths receives, index
 * after index, the merklize_mmcs_path_length siblings (32 bytes each) from the leaves' layer up
 * to the cap's. An index at or past merklize_mmcs_height is MERKLIZE_ERROR_ARGUMENT. */
MERKLIZE_API merklize_status merklize_mmcs_open(const merklize_mmcs *mmcs, const uint64_t *indices,
                                                uint64_t count, merklize_bytes **rows,
                                                merklize_bytes **paths);
/* What the cap binds: the matrices entering at or below the cap's layer only. A matrix of H rows
 * with ceil(log2 H) below min(cap_height, depth) enters above it: the cap does not depend on it
 * and merklize_mmcs_verify never hashes an opening's row of it (any row of its width verifies),
 * as in Plonky3's verify_batch. A cap_height of at most ceil(log2) of the smallest height binds
 * every matrix (docs/LIBRARY.md, "What the cap binds").
 *
 * Checks an opening on the host (no device), as Plonky3's verify_batch: *valid receives 1 where
 * the opened `rows` (each matrix's row, matrix after matrix, rows_size = the sum of the widths
 * times the element size) and `path` (path_size / 32 siblings) of row `index` lead to
 * cap[index >> path length] of the cap (cap_count digests of 32 bytes) of a commitment with
 * `cap_height` to matrices of `shapes`; else 0 with the reason in merklize_last_error() (the
 * status is MERKLIZE_OK): the path's length, heights Plonky3 refuses, an index out of range, an
 * element or a sibling's limb at or above p (naming it), the cap that does not match. An unknown or
 * refused hash, a rows_size that is not the widths' and a path_size that is not a multiple of 32
 * are MERKLIZE_ERROR_ARGUMENT. */
MERKLIZE_API merklize_status merklize_mmcs_verify(
    const char *hash, uint32_t cap_height, const uint8_t *cap, uint64_t cap_count,
    const merklize_matrix_shape *shapes, size_t matrix_count, uint64_t index, const void *rows,
    size_t rows_size, const uint8_t *path, size_t path_size, int *valid);

#ifdef __cplusplus
}
#endif

#endif /* MERKLIZE_H */
