R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Poseidon2 over BN254's scalar field Fr (p < 2^254), width 3, HorizenLabs' reference instance
 * (d = 5, R_F = 8, R_P = 56), in plain OpenCL C 1.2, alone in its programs: the node hash of the
 * "poseidon2-bn254" tree (poseidon2_bn254_node: the truncated permutation of [left, right, 0],
 * element 0 out, as Plonky3's TruncatedPermutation<_, 2, 1, 3>) and poseidon2_permute (states
 * permuted in memory: the known answer's test and the bench). The host reference is
 * include/merklize/core/poseidon2_bn254.hpp; poseidon2.cl is not used: its external layer is
 * Plonky3's 4x4 blocks, and width 3's matrices are a few additions here.
 *
 * An element is a ulong4 of 4 little-endian 64-bit limbs in Montgomery form (x 2^256 mod p),
 * multiplied by CIOS Montgomery multiplication over mul_hi. In memory (digests, states) an
 * element is its canonical value's 32 little-endian bytes; a value of p or more is taken mod p on
 * the way in (the Montgomery conversion reduces any 256-bit value), as the host takes it. */

/* Every helper is inlined: a call would pass the state through the private stack, which on a
 * GPU is device memory (as keccak.cl's KECCAK_INLINE). Compiled by PoCL (which defines
 * POCL_DEVICE_ADDRESS_BITS; not ahead of time, whose SPIR-V GPUs load too) the permutation and
 * the field multiplication are calls instead, as a CPU's calls are cheap: PoCL 3.1 took 240 s to
 * compile the tree program with them inlined (22 s with the permutation alone a call, 1.8 s with
 * both, which ran 4 MiB of leaves 8% faster than the permutation alone). */
#define P2_INLINE inline __attribute__((always_inline))
#ifdef POCL_DEVICE_ADDRESS_BITS /* PoCL compiling */
#define P2_CALLED __attribute__((noinline))
#else
#define P2_CALLED P2_INLINE
#endif

/* BEGIN CONSTANTS: written by tools/poseidon2_constants.py, do not edit */
/* tests/vectors/commitments/poseidon2/bn254_w3.json, from
 *  HorizenLabs/poseidon2 @ 055bde3f4782731ba5f5ce5888a440a94327eaf3 (2024-11-25),
 *  plain_implementations/src/poseidon2/poseidon2_instance_bn256.rs
 * in Montgomery form: the canonical value times 2^256 mod p, 4 little-endian limbs. */
#define FR_P_LIMBS 0x43e1f593f0000001ul, 0x2833e84879b97091ul, 0xb85045b68181585dul, 0x30644e72e131a029ul
#define FR_MU 0xc2e1f593effffffful /* -1/p mod 2^64 */
#define FR_R2_LIMBS 0x1bb8e645ae216da7ul, 0x53fe3ab1e35c59e3ul, 0x8c49833d53bb8085ul, 0x0216d0b17f4e44a5ul /* 2^512 mod p */
#define P2_ROUNDS_P 56
__constant ulong4 p2_external_initial[12] = {
    (ulong4)(0xd722b5d4ce14484cul, 0x28fdf04ef431d35ful, 0x0af406c6d8a909c9ul, 0x2d545ba8d234efa0ul),
    (ulong4)(0x55a2a5fc348a5584ul, 0xd73cd95929e45265ul, 0x66e861c483269614ul, 0x040e6777b2b473e0ul),
    (ulong4)(0x0a830ec1f8020b2aul, 0x8197a4f899305e94ul, 0x3c2e69437ac4428ful, 0x17eceef02f845328ul),
    (ulong4)(0xa51d3e5bc97d6f8aul, 0x054ffe26dc378deful, 0xd8440cef8abe9c97ul, 0x005cbb47536245d6ul),
    (ulong4)(0x042cdbb0e05e41adul, 0xc2bbc7d386048513ul, 0x24521f75749e5203ul, 0x2b353c0d0eb46678ul),
    (ulong4)(0x452e08a370279600ul, 0x8a72c098f325f46cul, 0x6c50ae68b9aa1466ul, 0x0485044559c97364ul),
    (ulong4)(0x0ad536bde225df77ul, 0x618246ab1b44ea62ul, 0x9e92bf71d6d89f5ful, 0x143c32bc7134fbfful),
    (ulong4)(0xb88574faafd66bd9ul, 0x009eff80fe2d1c84ul, 0xd8e71adb450d4afaul, 0x2eda25b9568f5057ul),
    (ulong4)(0x25725962246fe49eul, 0xed9f756a0d2ac3d7ul, 0x3ae3c2d34ac9abe4ul, 0x0190cdb5e0b6b88cul),
    (ulong4)(0xe7adc99750fd3fe6ul, 0xb747a57693fc3913ul, 0x249a1e43051ca986ul, 0x1307eb2ed23a561bul),
    (ulong4)(0x9615931ff79536d3ul, 0x24525c947a923c33ul, 0x467ae014f2988ff5ul, 0x2c023f4762b95029ul),
    (ulong4)(0x92d843f6e7c528e0ul, 0x0cc5a90ee754e747ul, 0x191e21b2f55f9236ul, 0x28f936f9d4331f4bul),
};
__constant ulong4 p2_internal[56] = {
    (ulong4)(0x622adaa22bc0a5cful, 0xd1c5d8543b6eaf8aul, 0x330f3ecad0f62457ul, 0x1007cfff156de150ul),
    (ulong4)(0x7fcd7a7b51a3a11aul, 0xf3effc9d64057c75ul, 0xbc8a4ec31300cb0dul, 0x30322f4f7dcad9a8ul),
    (ulong4)(0x475cd06622b141d5ul, 0x5d64d8cf28285faeul, 0x6e095ffe4d284a15ul, 0x2643235c9b4cd1c2ul),
    (ulong4)(0x7c0b0359a212daf5ul, 0xd75ada0d5af14f5dul, 0xa4345628061ee257ul, 0x17b7c8b84e8ae776ul),
    (ulong4)(0x980c58b1742b36f2ul, 0xa565f2cadfe11248ul, 0x67ef3bea07c3028cul, 0x2c28234902b5fb1aul),
    (ulong4)(0xbde1186c2d096ab6ul, 0xe1703272efe9a103ul, 0xbc6f3904ba8072b1ul, 0x29302878a3f0234cul),
    (ulong4)(0x3ee7ba77b4128e99ul, 0xc51c0395c6a895f6ul, 0xccbf96f2605cbe98ul, 0x1e22e2745ca3afcaul),
    (ulong4)(0x1d3ad6691c835661ul, 0xfb5f95a2a21fab6cul, 0xc1659970e72c8dceul, 0x295474529436cfb0ul),
    (ulong4)(0x23328b4257f54073ul, 0x204e4f688af8e279ul, 0xa956bf6fe8162f7bul, 0x2f5d17dee06b555aul),
    (ulong4)(0x4a3ada744a172d09ul, 0x0c507c89be5ad794ul, 0x7c7f8bd5c89c352cul, 0x1d2576a41f2c7644ul),
    (ulong4)(0x9bd727e302eeb228ul, 0xdf6d767c8b1ea1f2ul, 0xca141180f54307d2ul, 0x2505c0d6236cad38ul),
    (ulong4)(0xb1e10961954c97c6ul, 0x3c4f0682d3f9fef2ul, 0x0c80d2cf71008c30ul, 0x0e15691f05a18dcdul),
    (ulong4)(0xeffe6ebd635f9952ul, 0xeb59bc51e7671c93ul, 0x96411255e253cbdeul, 0x12c2c08937fe27c9ul),
    (ulong4)(0xb874c9413a1317c4ul, 0x16e2f4333112a9a7ul, 0xc706227f94375e0aul, 0x17541af3ee77ed31ul),
    (ulong4)(0x1c8578d3964189aful, 0x9606117dd33043f7ul, 0x47321da7576a465ful, 0x1d221ece05653649ul),
    (ulong4)(0x4fe812537544679eul, 0x22c277f99fab065dul, 0x559c1f97037b2a59ul, 0x0d335d8cb64c1deeul),
    (ulong4)(0xfca74a7911772ad0ul, 0x7794ea0b1ae81a44ul, 0x8599b6205c8410dbul, 0x14a9bc1904fdb4e8ul),
    (ulong4)(0x27c775f5459458c7ul, 0x8328d2c0eb439f06ul, 0x40673f0d734180d6ul, 0x15277115e92859b9ul),
    (ulong4)(0xaf861af4a830e3cbul, 0x9dac43c8663d4a43ul, 0x667d238c169c8dadul, 0x1fd335e93980c88ful),
    (ulong4)(0x76cd7452dabee7beul, 0x179f9669b3470c47ul, 0xa2bcc37a7e3e4c39ul, 0x00c438f3ae0da84ful),
    (ulong4)(0xaddee77e65896478ul, 0xf76501d71142693bul, 0xa2bcea588c00e94aul, 0x01722a620d1ff415ul),
    (ulong4)(0x52e1361a9c23e520ul, 0x4da1bc258d71d221ul, 0x4833163a6bd5021ful, 0x0454fd58808e54b0ul),
    (ulong4)(0xa34eec98af509057ul, 0x2e045fe456fc3d06ul, 0x90bb41281158c2a0ul, 0x0f8cf45c26351255ul),
    (ulong4)(0x243306b131dcc1c4ul, 0xd17d829d08381589ul, 0xe0c512c5e114798eul, 0x003d28d510b59fb3ul),
    (ulong4)(0x25b75c234f6444fbul, 0xeb353c51fae5b32dul, 0x00fb023df1f10957ul, 0x2f2711c2a9795a71ul),
    (ulong4)(0xffe40ffd76a3c33cul, 0x901a3707506b5ac6ul, 0xae56f79fb1e48843ul, 0x12c0e58cb67b0272ul),
    (ulong4)(0x6309182356f1402dul, 0xb3f95ba486d54d35ul, 0x5a2ddb75a5857b1aul, 0x28fe9993cc4197a9ul),
    (ulong4)(0xb0c450f4a3f6b5b0ul, 0xfb32607c6a8264d2ul, 0xcf4f33c877693cd9ul, 0x1688e51814e723b6ul),
    (ulong4)(0x8ad5b2a903c59de3ul, 0x7d1fd0b54c75b7edul, 0x7b4a673a13715eb5ul, 0x135ae381c9abc9eful),
    (ulong4)(0x985df3dd87e82218ul, 0x8a8f90a81c7b6afcul, 0x4e5335ed59689ddbul, 0x0d57011fefb878b7ul),
    (ulong4)(0xbd085218ff45c733ul, 0xc45006a6febbde0cul, 0x4dd8cc03d08175e9ul, 0x01489fd5585e3a76ul),
    (ulong4)(0xc298e7cec2adf0e4ul, 0xaff1e5dc96d4e0aaul, 0xf813062aed3650d3ul, 0x141502464af64218ul),
    (ulong4)(0x2a225f3b96eac478ul, 0xe2c4637710a0c288ul, 0x334a38b2af702e8dul, 0x078cff44e2702e40ul),
    (ulong4)(0x160dc4b8ecd11192ul, 0xbfd46405af580450ul, 0xc859ded4e1574ad2ul, 0x0e24f08edbbdf10eul),
    (ulong4)(0x91e59108bab52fbdul, 0x9253af9dec62a826ul, 0x7e946b84d0b98ef8ul, 0x2fbb7b1ab2e483eaul),
    (ulong4)(0xac92d3aa83eda039ul, 0xa46909098e1b86adul, 0x4ffd74303bc0dd1aul, 0x023ca89463c8a8f3ul),
    (ulong4)(0x3fd205fcec8cac00ul, 0x4eb6b7a0e62b9259ul, 0x7a2aeaf511dc0089ul, 0x0c3bec0390e63b2cul),
    (ulong4)(0xaf9390f4c48910ddul, 0x5d5890c5a83287ebul, 0x72c8b90e7fb055f1ul, 0x1841ff432dea9c62ul),
    (ulong4)(0x69faa71e59bf0bb5ul, 0x5bc0f299809df839ul, 0x270e1a316c468e1cul, 0x29a11242d6147416ul),
    (ulong4)(0x8972b665b65fdc48ul, 0x5c9c56f94edd199ful, 0x7655c00b06c983aeul, 0x0b0f3ab31e51c321ul),
    (ulong4)(0xa060ea214656c733ul, 0x3e03eaf6fcfc3711ul, 0x1283ed55768e5a4eul, 0x1d52067c7b3ed73bul),
    (ulong4)(0xd3e688c7184334a4ul, 0x3300ee2a8b440d8eul, 0x09cb5cabeb30bc1aul, 0x10b468936b68a8c9ul),
    (ulong4)(0xd905c6a45919c64dul, 0x42c29960a1ecb91dul, 0xdb15563a04a42f1eul, 0x222da53fd2ff55beul),
    (ulong4)(0x795621e7baf9856aul, 0xbd06eab74a37377ful, 0xd69262b4482dfab7ul, 0x06336772940098e7ul),
    (ulong4)(0xb15532dc0bbc434aul, 0x935ec462c1914f69ul, 0xd263edc8605fe849ul, 0x201a1b25dcce9527ul),
    (ulong4)(0x7f9233db7d37cc55ul, 0x39e290933fa1e7cbul, 0x4b7f45bfcb35976aul, 0x095f02ff83f0c587ul),
    (ulong4)(0xf4eb6a6839d344c8ul, 0x61d3173fcc408889ul, 0x358b1b65754bc487ul, 0x041a46d8f8d020daul),
    (ulong4)(0x76955850eea956d1ul, 0x329bb5c33f7ce928ul, 0xb89bbc088b21b882ul, 0x1d8400cddbf59315ul),
    (ulong4)(0xe7afa14d64087d30ul, 0x7e1d1f05521f9766ul, 0xda7886ca0435f6c2ul, 0x162043960c90400dul),
    (ulong4)(0x2406277f2efd539cul, 0x7619c402bf80b5eeul, 0x8df98925b1e02b30ul, 0x29aa9e804f8ba893ul),
    (ulong4)(0x61637e664dda1e31ul, 0x451c6e5727eb3f1dul, 0x33a1432b3c6bc83cul, 0x12c1abfc08d0e74ful),
    (ulong4)(0xcc07040ff65773ddul, 0x4c04f1390c2ec344ul, 0xe7e912e6ca1e8523ul, 0x0d8eaffd17a6be33ul),
    (ulong4)(0xde8160aa9f9fc719ul, 0x78c44db32a8900c9ul, 0x60a764e3354fdd17ul, 0x1c20317d24a81952ul),
    (ulong4)(0x27a34e474a38f228ul, 0xdc1f7f9c49138197ul, 0x6a7345260fcc6063ul, 0x0fd1c6328c7ed4d2ul),
    (ulong4)(0x1a23634f913af446ul, 0x089c939a6ff10352ul, 0x7ba874ea0250b0feul, 0x081b59ca4ea4de4aul),
    (ulong4)(0xf58f374a9ce9ff43ul, 0xfef4b21e9aab157dul, 0x6cb30b885302aee7ul, 0x25685b31c9911102ul),
};
__constant ulong4 p2_external_final[12] = {
    (ulong4)(0x8e8db2dcae74b354ul, 0x18d52d0c368291c9ul, 0x5ec6273241ab4b08ul, 0x1284ed5f098eabd3ul),
    (ulong4)(0x1fbe709efc6734e0ul, 0x84a4299630bc8815ul, 0x9bf5e155b0e2c32eul, 0x08e211c4f350b3eful),
    (ulong4)(0x9423ffa0b7c9731aul, 0xa70300acead2eb93ul, 0x1526253741d22c44ul, 0x2fae94ed023f12e0ul),
    (ulong4)(0x4b5ff60265185ab2ul, 0xbea20e3f0d9953e3ul, 0x0dfcbf8f224890c4ul, 0x14bccf4609c0effdul),
    (ulong4)(0xe4cab4612da2e433ul, 0x11e05277a8d64ce1ul, 0xbbcaa97bc7ed715eul, 0x0ecfcc925bca9fc1ul),
    (ulong4)(0xdfb8951370941941ul, 0x960042e3ce168be1ul, 0x6d54135d6cabdbbbul, 0x0221b16be464a69aul),
    (ulong4)(0x3918cf0b20a0f689ul, 0xecd0d188622af6dbul, 0x4e1b574c8a26e246ul, 0x2d85fbe5a0d6fa59ul),
    (ulong4)(0x0fc72998c5b60d86ul, 0x2a5351528fdc2a51ul, 0x7adec22b4eabd232ul, 0x0a08535ef111a956ul),
    (ulong4)(0x0df1d9e2ca492b78ul, 0x4a01db83a8d99ad4ul, 0xeb2bcb74cbf1383dul, 0x2e9984824b7a3011ul),
    (ulong4)(0x267cc7a6c20b3c54ul, 0x619ad1e0d0e2fdcaul, 0x9668fc44cfe99da2ul, 0x15f960d8396bc175ul),
    (ulong4)(0x17e87a80f8b105caul, 0x666e49d9fa2042eaul, 0xc40330f54734c297ul, 0x2a656ded4524e0dcul),
    (ulong4)(0x1a8a41ea3fa848fdul, 0x68c01b2742aea9aaul, 0xc5ff17a405f7acadul, 0x05932f8c2731e92aul),
};
/* END CONSTANTS */

typedef ulong4 fr;

/* a + b + *carry (0 or 1): the low 64 bits; the carry out in *carry. */
P2_INLINE ulong fr_adc(ulong a, ulong b, ulong *carry) {
  const ulong s = a + b, t = s + *carry;
  *carry = (ulong)(s < a) | (ulong)(t < s);
  return t;
}

/* a - b - *borrow (0 or 1): the low 64 bits; the borrow out in *borrow. */
P2_INLINE ulong fr_sbb(ulong a, ulong b, ulong *borrow) {
  const ulong d = a - b, t = d - *borrow;
  *borrow = (ulong)(a < b) | (ulong)(d < *borrow);
  return t;
}

/* t + a b + *carry: the low 64 bits; the high ones in *carry (the sum is below 2^128). */
P2_INLINE ulong fr_mac(ulong t, ulong a, ulong b, ulong *carry) {
  ulong lo = a * b, hi = mul_hi(a, b);
  lo += t;
  hi += lo < t;
  lo += *carry;
  hi += lo < *carry;
  *carry = hi;
  return lo;
}

/* x mod p for x below 2p. */
P2_INLINE fr fr_reduce_once(fr x) {
  const ulong p[4] = {FR_P_LIMBS};
  ulong borrow = 0;
  fr t;
  t.s0 = fr_sbb(x.s0, p[0], &borrow);
  t.s1 = fr_sbb(x.s1, p[1], &borrow);
  t.s2 = fr_sbb(x.s2, p[2], &borrow);
  t.s3 = fr_sbb(x.s3, p[3], &borrow);
  return borrow ? x : t;
}

/* a + b for a, b below p: below 2^255, no carry out of the 4 limbs. */
P2_INLINE fr fr_add(fr a, fr b) {
  ulong carry = 0;
  fr s;
  s.s0 = fr_adc(a.s0, b.s0, &carry);
  s.s1 = fr_adc(a.s1, b.s1, &carry);
  s.s2 = fr_adc(a.s2, b.s2, &carry);
  s.s3 = fr_adc(a.s3, b.s3, &carry);
  return fr_reduce_once(s);
}

/* x y / 2^256 mod p (CIOS): for x y below 2^256 p the result is below 2p before the last
 * subtraction, so any 256-bit x times an element below p comes out below p. */
P2_CALLED fr fr_mul(fr x, fr y) {
  const ulong a[4] = {x.s0, x.s1, x.s2, x.s3}, b[4] = {y.s0, y.s1, y.s2, y.s3};
  const ulong p[4] = {FR_P_LIMBS};
  ulong t[6] = {0, 0, 0, 0, 0, 0};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    ulong c = 0, c2 = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) t[j] = fr_mac(t[j], a[j], b[i], &c);
    t[4] = fr_adc(t[4], c, &c2);
    t[5] = c2;
    const ulong m = t[0] * FR_MU; /* t + m p is divisible by 2^64 */
    c = 0;
    fr_mac(t[0], m, p[0], &c);
#pragma unroll
    for (int j = 1; j < 4; ++j) t[j - 1] = fr_mac(t[j], m, p[j], &c);
    c2 = 0;
    t[3] = fr_adc(t[4], c, &c2);
    t[4] = t[5] + c2;
  }
  return fr_reduce_once((fr)(t[0], t[1], t[2], t[3]));
}

/* A value in memory (any 256 bits, taken mod p) into Montgomery form, and an element out to its
 * canonical value. */
P2_INLINE fr fr_in(fr v) { return fr_mul(v, (fr)(FR_R2_LIMBS)); }
P2_INLINE fr fr_out(fr x) { return fr_mul(x, (fr)(1, 0, 0, 0)); }

P2_INLINE fr p2_sbox(fr x) {
  const fr x2 = fr_mul(x, x), x4 = fr_mul(x2, x2);
  return fr_mul(x4, x);
}

/* M_E = circ(2, 1, 1): y_i = x_i + sum(x). */
P2_INLINE void p2_external_layer(fr *x) {
  const fr sum = fr_add(fr_add(x[0], x[1]), x[2]);
  x[0] = fr_add(x[0], sum);
  x[1] = fr_add(x[1], sum);
  x[2] = fr_add(x[2], sum);
}

/* M_I = J + diag(1, 1, 2) (the copied internal_diag, which the generator checks): y_i = sum(x)
 * + V_i x_i. */
P2_INLINE void p2_internal_layer(fr *x) {
  const fr sum = fr_add(fr_add(x[0], x[1]), x[2]);
  x[0] = fr_add(x[0], sum);
  x[1] = fr_add(x[1], sum);
  x[2] = fr_add(fr_add(x[2], x[2]), sum);
}

P2_INLINE void p2_full_rounds(fr *x, __constant const fr *constants) {
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int i = 0; i < 3; ++i) x[i] = p2_sbox(fr_add(x[i], constants[3 * r + i]));
    p2_external_layer(x);
  }
}

/* The permutation of x (Montgomery form) in place, as the host reference orders it. */
P2_CALLED void p2_permute(fr *x) {
  p2_external_layer(x);
  p2_full_rounds(x, p2_external_initial);
  for (int r = 0; r < P2_ROUNDS_P; ++r) {
    x[0] = p2_sbox(fr_add(x[0], p2_internal[r]));
    p2_internal_layer(x);
  }
  p2_full_rounds(x, p2_external_final);
}

/* A digest's 8 little-endian u32 words as the 4 limbs of its value, and back. */
P2_INLINE fr fr_of_words(uint8 w) {
  return (fr)(upsample(w.s1, w.s0), upsample(w.s3, w.s2), upsample(w.s5, w.s4),
              upsample(w.s7, w.s6));
}
P2_INLINE uint8 fr_words(fr v) {
  return (uint8)((uint)v.s0, (uint)(v.s0 >> 32), (uint)v.s1, (uint)(v.s1 >> 32), (uint)v.s2,
                 (uint)(v.s2 >> 32), (uint)v.s3, (uint)(v.s3 >> 32));
}

/* The node function of merkle.cl and its kin (uint8 f(uint8 left, uint8 right, int is_root)):
 * the permutation of [left, right, 0], element 0 out. No root flag. */
P2_INLINE uint8 poseidon2_bn254_node(uint8 left, uint8 right, int is_root) {
  fr x[3] = {fr_in(fr_of_words(left)), fr_in(fr_of_words(right)), (fr)(0, 0, 0, 0)};
  p2_permute(x);
  return fr_words(fr_out(x[0]));
}

/* states[s * 12 .. s * 12 + 12) (3 elements of 4 little-endian limbs) <- the permutation of it,
 * applied `rounds` times, canonical in and out (a value of p or more is taken mod p), for s below
 * count: the known answer's test (tests/test_poseidon2_device.cpp) and bench/poseidon2_bench.cpp
 * (rounds > 1: the permutation-only rate, memory traffic amortised away). */
__kernel void poseidon2_permute(__global ulong *states, ulong count, uint rounds) {
  const ulong s = get_global_id(0);
  if (s >= count) return;
  fr x[3];
#pragma unroll
  for (int i = 0; i < 3; ++i) x[i] = fr_in(vload4(3 * s + i, states));
  for (uint r = 0; r < rounds; ++r) p2_permute(x);
#pragma unroll
  for (int i = 0; i < 3; ++i) vstore4(fr_out(x[i]), 3 * s + i, states);
}
)merklize_cl"
