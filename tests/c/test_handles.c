/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Handles that are not live ones of their type: a handle of another type (a builder passed as a
 * device, a proof as a tree, a byte run as anything) and a freed one (a call after its free, a
 * second free) are refused by every call that takes a handle: MERKLIZE_ERROR_ARGUMENT, the message
 * naming the parameter and saying it is not a live merklize_X handle and why; the accessors that
 * return a value give what they give for NULL, and the frees free nothing, merklize_last_error
 * saying why.
 *
 * Built with AddressSanitizer (tests/c/CMakeLists.txt), so that the library's heap is ASan's: a
 * second delete of a handle, or a read of its memory once given back, would stop the test with
 * ASan's report. The library itself is not instrumented: it reads the tag where a handle points,
 * and a freed handle's memory stays in its quarantine (handle_tags.hpp), so that what a double
 * free reads is the freed tag, not memory given back. */
#include "c_test.h"

#include <stdio.h>
#include <string.h>

/* Makes merklize_last_error hold something else, so that the next message is the next call's. */
static void forget_last_error(void) {
  CHECK(merklize_device_count(NULL) == MERKLIZE_ERROR_ARGUMENT, "merklize_device_count(NULL)");
}

/* The last error says `param` is not a live `type` handle, because of `why`. */
static void check_message(const char *call, const char *param, const char *type, const char *why) {
  char said[128];
  const char *message = merklize_last_error();
  snprintf(said, sizeof said, "`%s` is not a live %s handle: ", param, type);
  CHECK(strstr(message, said) != NULL && strstr(message, why) != NULL,
        "%s: the message \"%s\" does not say \"%s\" and \"%s\"", call, message, said, why);
}

static void check_refused(merklize_status status, const char *call, const char *param,
                          const char *type, const char *why) {
  CHECK(status == MERKLIZE_ERROR_ARGUMENT, "%s: %s, expected MERKLIZE_ERROR_ARGUMENT (%s)", call,
        merklize_status_name(status), merklize_last_error());
  check_message(call, param, type, why);
}
#define REFUSED(call, param, type) check_refused((call), #call, param, "merklize_" type, why)

/* An accessor of a value, or a free: it gives `value` (nonzero: what it gave is not NULL's). */
static void check_ignored(int value, const char *call, const char *param, const char *type,
                          const char *why) {
  CHECK(!value, "%s: did not give what it gives for NULL", call);
  check_message(call, param, type, why);
}
#define IGNORED(call, param, type)                                                                 \
  do {                                                                                             \
    forget_last_error();                                                                           \
    check_ignored((call) != 0, #call, param, "merklize_" type, why);                               \
  } while (0)
#define FREE_IGNORED(call, param, type)                                                            \
  do {                                                                                             \
    forget_last_error();                                                                           \
    call;                                                                                          \
    check_ignored(0, #call, param, "merklize_" type, why);                                         \
  } while (0)

/* Every call taking a handle of a type other than merklize_bytes, given `h`, which is none of
 * them (`why`: what the message says it is); `tree` is a live device tree, for the calls whose
 * second handle is checked after it. */
static void refused_but_bytes(void *h, const char *why, merklize_device_tree *tree) {
  merklize_device *device = h;
  merklize_builder *builder = h;
  merklize_tree *t = h;
  merklize_proof *proof = h;
  merklize_device_tree *dt = h;
  merklize_update_batch *batch = h;
  merklize_tree_snapshot *snapshot = h;
  merklize_sparse_tree *sparse = h;
  merklize_mmcs *mmcs = h;
  merklize_device_info info;
  merklize_tree_config config = test_config(NULL, NULL);
  const merklize_source source = merklize_source_memory("0123456789abcdef0123456789abcdef", 32);
  merklize_builder *made_builder = NULL;
  merklize_tree *made_tree = NULL;
  merklize_proof *made_proof = NULL;
  merklize_bytes *bytes = NULL, *more = NULL;
  merklize_device_tree *made_dt = NULL;
  merklize_update_batch *made_batch = NULL;
  merklize_tree_snapshot *made_snapshot = NULL;
  merklize_sparse_tree *made_sparse = NULL;
  merklize_mmcs *made_mmcs = NULL;
  merklize_matrix matrix = {NULL, 0, 0};
  uint8_t buffer[256] = {0};
  uint64_t indices[1] = {0}, count = 0;
  const uint8_t *nodes = NULL;
  const uint64_t *listed = NULL;
  size_t size = 0;
  int valid = 0;
  info.size = sizeof info;
  REFUSED(merklize_device_describe(device, &info), "device", "device");
  REFUSED(merklize_builder_create(device, &config, &made_builder), "device", "device");
  REFUSED(merklize_build(builder, &source, &made_tree), "builder", "builder");
  REFUSED(merklize_root(builder, &source, buffer), "builder", "builder");
  REFUSED(merklize_tree_root(t, buffer), "tree", "tree");
  REFUSED(merklize_tree_level(t, 0, &nodes, &count), "tree", "tree");
  REFUSED(merklize_tree_node(t, 0, 0, buffer), "tree", "tree");
  REFUSED(merklize_build_cl(builder, NULL, 1, NULL, 0, NULL, NULL), "builder", "builder");
  REFUSED(merklize_prove(t, 0, &made_proof), "tree", "tree");
  REFUSED(merklize_prove_multi(t, indices, 1, &made_proof), "tree", "tree");
  REFUSED(merklize_prove_consistency(t, 1, &made_proof), "tree", "tree");
  REFUSED(merklize_prove_source(builder, &source, 0, &made_proof), "builder", "builder");
  REFUSED(merklize_proof_indices(proof, &listed, &size), "proof", "proof");
  REFUSED(merklize_proof_nodes(proof, &nodes, &size), "proof", "proof");
  REFUSED(merklize_proof_encode(proof, MERKLIZE_ENCODING_JSON, &bytes), "proof", "proof");
  REFUSED(merklize_proof_verify(proof, buffer, 1, buffer, &valid), "proof", "proof");
  REFUSED(merklize_verify_consistency(proof, buffer, buffer, &valid), "proof", "proof");
  REFUSED(merklize_blake3(device, NULL, &source, buffer, 32), "device", "device");
  REFUSED(merklize_sha256_layer(device, buffer, buffer, 1), "device", "device");
  REFUSED(merklize_log_leaves(device, &source, "lines", &bytes), "device", "device");
  REFUSED(merklize_dm_verity(device, NULL, &source, buffer, NULL), "device", "device");
  REFUSED(merklize_fs_verity(device, NULL, &source, buffer, NULL), "device", "device");
  REFUSED(merklize_bao_outboard(device, &source, buffer, NULL), "device", "device");
  REFUSED(merklize_oz_standard_tree(device, "{}", 2, 1, buffer, NULL), "device", "device");
  REFUSED(merklize_oz_standard_proof(device, "{}", 2, 1, indices, 1, &bytes), "device", "device");
  REFUSED(merklize_bitcoin_root(device, &source, 0, buffer, NULL), "device", "device");
  REFUSED(merklize_bitcoin_proof(device, &source, 0, 0, &bytes), "device", "device");
  REFUSED(merklize_filecoin_commitment(device, &source, buffer, NULL), "device", "device");
  REFUSED(merklize_device_tree_create(builder, buffer, 32, &made_dt), "builder", "builder");
  REFUSED(merklize_device_tree_root(dt, buffer), "tree", "device_tree");
  REFUSED(merklize_device_tree_update(dt, indices, buffer, 1, NULL), "tree", "device_tree");
  REFUSED(merklize_device_tree_update_proved(dt, indices, buffer, 1, NULL, &made_proof), "tree",
          "device_tree");
  REFUSED(merklize_device_tree_prove(dt, 0, &made_proof), "tree", "device_tree");
  REFUSED(merklize_device_tree_append(dt, buffer, 1, NULL), "tree", "device_tree");
  REFUSED(merklize_device_tree_append_cl(dt, NULL, 0, 0, NULL, NULL, NULL), "tree",
          "device_tree");
  REFUSED(merklize_device_tree_update_cl(dt, NULL, NULL, 0, 0, NULL, NULL, NULL), "tree",
          "device_tree");
  REFUSED(merklize_device_tree_prove_consistency(dt, 1, &made_proof), "tree", "device_tree");
  REFUSED(merklize_device_tree_level_size(dt, 0, &count), "tree", "device_tree");
  REFUSED(merklize_device_tree_read_level(dt, 0, 0, 1, buffer), "tree", "device_tree");
  REFUSED(merklize_device_tree_batch_create(dt, 1, &made_batch), "tree", "device_tree");
  REFUSED(merklize_device_tree_update_batch(dt, batch, 0, NULL), "tree", "device_tree");
  REFUSED(merklize_device_tree_update_batch(tree, batch, 0, NULL), "batch", "update_batch");
  REFUSED(merklize_device_tree_snapshot(dt, &made_snapshot), "tree", "device_tree");
  REFUSED(merklize_device_tree_rollback(dt, snapshot, NULL), "tree", "device_tree");
  REFUSED(merklize_device_tree_rollback(tree, snapshot, NULL), "snapshot", "tree_snapshot");
  REFUSED(merklize_roots_many(builder, buffer, 64, 2, buffer, 32), "builder", "builder");
  REFUSED(merklize_sparse_tree_create(device, NULL, 8, &made_sparse), "device", "device");
  REFUSED(merklize_sparse_tree_root(sparse, buffer), "tree", "sparse_tree");
  REFUSED(merklize_sparse_tree_update(sparse, buffer, buffer, 1, NULL), "tree", "sparse_tree");
  REFUSED(merklize_sparse_tree_value(sparse, buffer, buffer), "tree", "sparse_tree");
  REFUSED(merklize_sparse_tree_prove(sparse, buffer, buffer, &bytes), "tree", "sparse_tree");
  REFUSED(merklize_mmcs_commit(device, "poseidon2-babybear", &matrix, 1, 0, &made_mmcs), "device",
          "device");
  REFUSED(merklize_mmcs_commit_dropping(device, "poseidon2-babybear", &matrix, 1, 0, 0,
                                        &made_mmcs),
          "device", "device");
  REFUSED(merklize_mmcs_cap(mmcs, buffer, sizeof buffer), "mmcs", "mmcs");
  REFUSED(merklize_mmcs_open(mmcs, indices, 1, &bytes, &more), "mmcs", "mmcs");
  IGNORED(merklize_tree_leaf_count(t), "tree", "tree");
  IGNORED(merklize_tree_depth(t), "tree", "tree");
  IGNORED(merklize_tree_first_level(t), "tree", "tree");
  IGNORED(merklize_proof_get_kind(proof), "proof", "proof");
  IGNORED(merklize_proof_leaf_count(proof), "proof", "proof");
  IGNORED(merklize_device_tree_leaf_count(dt), "tree", "device_tree");
  IGNORED(merklize_device_tree_depth(dt), "tree", "device_tree");
  IGNORED(merklize_update_batch_capacity(batch), "batch", "update_batch");
  IGNORED(merklize_update_batch_indices(batch) != NULL, "batch", "update_batch");
  IGNORED(merklize_update_batch_leaves(batch) != NULL, "batch", "update_batch");
  IGNORED(merklize_tree_snapshot_leaf_count(snapshot), "snapshot", "tree_snapshot");
  IGNORED(merklize_sparse_tree_size(sparse), "tree", "sparse_tree");
  IGNORED(merklize_mmcs_cap_count(mmcs), "mmcs", "mmcs");
  IGNORED(merklize_mmcs_height(mmcs), "mmcs", "mmcs");
  IGNORED(merklize_mmcs_path_length(mmcs), "mmcs", "mmcs");
  IGNORED(merklize_mmcs_row_size(mmcs), "mmcs", "mmcs");
  FREE_IGNORED(merklize_device_free(device), "device", "device");
  FREE_IGNORED(merklize_builder_free(builder), "builder", "builder");
  FREE_IGNORED(merklize_tree_free(t), "tree", "tree");
  FREE_IGNORED(merklize_proof_free(proof), "proof", "proof");
  FREE_IGNORED(merklize_device_tree_free(dt), "tree", "device_tree");
  FREE_IGNORED(merklize_update_batch_free(batch), "batch", "update_batch");
  FREE_IGNORED(merklize_tree_snapshot_free(snapshot), "snapshot", "tree_snapshot");
  FREE_IGNORED(merklize_sparse_tree_free(sparse), "tree", "sparse_tree");
  FREE_IGNORED(merklize_mmcs_free(mmcs), "mmcs", "mmcs");
  CHECK(!made_builder && !made_tree && !made_proof && !bytes && !more && !made_dt && !made_batch &&
            !made_snapshot && !made_sparse && !made_mmcs,
        "a refused call wrote an out-pointer");
}

/* The calls of merklize_bytes, given `h`, which is no byte run. */
static void refused_as_bytes(void *h, const char *why) {
  merklize_bytes *bytes = h;
  IGNORED(merklize_bytes_data(bytes) != NULL, "bytes", "bytes");
  IGNORED(merklize_bytes_size(bytes), "bytes", "bytes");
  FREE_IGNORED(merklize_bytes_free(bytes), "bytes", "bytes");
}

static merklize_proof *decoded_proof(void) {
  static const char json[] =
      "{\"format\":\"merklize-proof\",\"version\":1,\"kind\":\"inclusion\",\"hash\":\"sha256\","
      "\"shape\":\"promote\",\"leaf_count\":1,\"depth\":0,\"index\":0,\"siblings\":[]}";
  merklize_proof *proof = NULL;
  CHECK_OK(merklize_proof_decode(json, sizeof json - 1, MERKLIZE_ENCODING_JSON, &proof));
  return proof;
}

/* Handles of other types: a byte run as every other type, a proof as a byte run; the cases the
 * campaign found, a builder as a device and a proof as a tree. */
static void other_types(merklize_device *device, merklize_device_tree *tree) {
  merklize_proof *proof = decoded_proof();
  merklize_bytes *bytes = NULL;
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder = test_builder(device, &config), *another = NULL;
  uint8_t root[32];
  CHECK_OK(merklize_proof_encode(proof, MERKLIZE_ENCODING_JSON, &bytes));
  refused_but_bytes(bytes, "it is a merklize_bytes", tree);
  refused_as_bytes(proof, "it is a merklize_proof");
  CHECK_FAILS(merklize_builder_create((merklize_device *)builder, &config, &another),
              MERKLIZE_ERROR_ARGUMENT,
              "merklize_builder_create: `device` is not a live merklize_device handle: it is a "
              "merklize_builder");
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_tree_root((merklize_tree *)proof, root), MERKLIZE_ERROR_ARGUMENT,
              "merklize_tree_root: `tree` is not a live merklize_tree handle: it is a "
              "merklize_proof");
  CHECK(another == NULL && test_is_poisoned(root, sizeof root), "a refused call wrote");
  /* Each still works as what it is. */
  CHECK(merklize_bytes_size(bytes) > 0 && merklize_proof_leaf_count(proof) == 1,
        "the handles passed as others changed");
  merklize_builder_free(builder);
  merklize_bytes_free(bytes);
  merklize_proof_free(proof);
  printf("ok: a handle of another type is refused by every call that takes a handle (status, "
         "or NULL's value, or nothing freed), naming the parameter\n");
}

/* Freed handles: a call after the free refused, a second free freeing nothing, for each type
 * that is cheap to make; then the rest of the calls given a freed proof. */
static void freed(merklize_device *device, merklize_device_tree *tree) {
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder = test_builder(device, &config);
  const merklize_source source = merklize_source_memory("0123456789abcdef0123456789abcdef", 32);
  merklize_device *opened = NULL;
  merklize_tree *built = NULL;
  merklize_proof *proof = decoded_proof();
  merklize_bytes *bytes = NULL;
  merklize_update_batch *batch = NULL;
  merklize_tree_snapshot *snapshot = NULL;
  merklize_device_info info;
  uint8_t root[32];
  const char *why = "it was freed";
  CHECK_OK(merklize_device_open(NULL, &opened));
  CHECK_OK(merklize_build(builder, &source, &built));
  CHECK_OK(merklize_proof_encode(proof, MERKLIZE_ENCODING_BINARY, &bytes));
  CHECK_OK(merklize_device_tree_batch_create(tree, 4, &batch));
  CHECK_OK(merklize_device_tree_snapshot(tree, &snapshot));
  merklize_device_free(opened);
  merklize_builder_free(builder);
  merklize_tree_free(built);
  merklize_bytes_free(bytes);
  merklize_update_batch_free(batch);
  merklize_tree_snapshot_free(snapshot);
  info.size = sizeof info;
  REFUSED(merklize_device_describe(opened, &info), "device", "device");
  REFUSED(merklize_root(builder, &source, root), "builder", "builder");
  REFUSED(merklize_tree_root(built, root), "tree", "tree");
  REFUSED(merklize_device_tree_rollback(tree, snapshot, root), "snapshot", "tree_snapshot");
  IGNORED(merklize_bytes_size(bytes), "bytes", "bytes");
  IGNORED(merklize_update_batch_capacity(batch), "batch", "update_batch");
  FREE_IGNORED(merklize_device_free(opened), "device", "device");
  FREE_IGNORED(merklize_builder_free(builder), "builder", "builder");
  FREE_IGNORED(merklize_tree_free(built), "tree", "tree");
  FREE_IGNORED(merklize_bytes_free(bytes), "bytes", "bytes");
  FREE_IGNORED(merklize_update_batch_free(batch), "batch", "update_batch");
  FREE_IGNORED(merklize_tree_snapshot_free(snapshot), "snapshot", "tree_snapshot");
  merklize_proof_free(proof);
  FREE_IGNORED(merklize_proof_free(proof), "proof", "proof");
  refused_but_bytes(proof, "freed", tree); /* "it was freed", "it is a freed merklize_proof" */
  refused_as_bytes(proof, "it is a freed merklize_proof");
  printf("ok: a freed handle is refused by the calls, and a second free frees nothing\n");
}

/* A device tree freed twice, the last handle of this test. */
static void freed_device_tree(merklize_device_tree *tree) {
  uint8_t root[32];
  const char *why = "it was freed";
  merklize_device_tree_free(tree);
  REFUSED(merklize_device_tree_root(tree, root), "tree", "device_tree");
  FREE_IGNORED(merklize_device_tree_free(tree), "tree", "device_tree");
  printf("ok: a device tree freed twice\n");
}

int main(void) {
  merklize_device *device = test_device();
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder = test_builder(device, &config);
  merklize_device_tree *tree = NULL;
  uint8_t leaves[4 * 32] = {1, 2, 3};
  CHECK_OK(merklize_device_tree_create(builder, leaves, sizeof leaves, &tree));
  merklize_builder_free(builder);
  other_types(device, tree);
  freed(device, tree);
  freed_device_tree(tree);
  merklize_device_free(device);
  return 0;
}
