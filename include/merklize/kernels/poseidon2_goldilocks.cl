R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Poseidon2 over Goldilocks (p = 2^64 - 2^32 + 1), Plonky3's default instances of width 8 and
 * 12, in plain OpenCL C 1.2: the node hash of the "poseidon2-goldilocks" tree
 * (poseidon2_goldilocks_node, for merkle.cl and its kin: Plonky3's 2-to-1 compression, a
 * truncated permutation of width 8) and a kernel that permutes states in memory
 * (poseidon2_goldilocks_permute: the known answers' test and the bench). The host reference is
 * include/merklize/core/poseidon2.hpp, which also says the order of the layers; the layers below
 * are poseidon2_31.cl's over 64-bit elements.
 *
 * Build option: -DMERKLIZE_POSEIDON2_WIDTH=8 (the default, the only width with a node function)
 * or 12.
 *
 * Elements are canonical ulongs below p. A product is 128 bits (mul_hi and the low half) reduced
 * by p's shape: 2^64 = 2^32 - 1 and 2^96 = -1 mod p, so hi 2^64 + lo with hi = hh 2^32 + hl is
 * lo - hh + hl (2^32 - 1); each carry or borrow out of 64 bits is corrected by 2^32 - 1 once. */

#ifndef MERKLIZE_POSEIDON2_WIDTH
#define MERKLIZE_POSEIDON2_WIDTH 8
#endif
#define P2_W MERKLIZE_POSEIDON2_WIDTH

/* Every helper is inlined: a call would pass the state through the private stack, which on a
 * GPU is device memory (as keccak.cl's KECCAK_INLINE). */
#define P2_INLINE inline __attribute__((always_inline))

#define P2_PRIME 0xffffffff00000001ul
#define P2_EPSILON 0xfffffffful /* 2^64 mod p */

/* BEGIN CONSTANTS: written by tools/poseidon2_constants.py, do not edit */
/* tests/vectors/commitments/poseidon2/goldilocks_w8.json, from
 *  Plonky3/Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217 (2026-08-22),
 *  goldilocks/src/poseidon2.rs
 * canonical values. */
#if MERKLIZE_POSEIDON2_WIDTH == 8
#define P2_ROUNDS_P 22
__constant ulong p2_external_initial[32] = {
    15949291268843349465ul, 14644164809401934923ul, 18420360874837380316ul,
    4756469047455716334ul, 8685499049481102115ul, 3799221349720045367ul,
    13676397835037157930ul, 6566439050423619635ul, 17428268347612331188ul,
    2833135872454503769ul, 4767009016213040191ul, 2797635963551733652ul,
    5312339450141126694ul, 5356668452102813289ul, 1234059326449530173ul,
    7724302552453704877ul, 14868588146468890290ul, 12825281145595371185ul,
    13097885453579304196ul, 7905326782341128063ul, 14167525334039893569ul,
    2082169701994688927ul, 12190787523818595537ul, 12602917751946636ul,
    14890907856876319003ul, 16552240149997473409ul, 5634093690795187558ul,
    4883714163685656967ul, 12440776365164557866ul, 3923800234666204307ul,
    9858064884105950259ul, 16040043470428402038ul,
};
__constant ulong p2_internal[22] = {
    5226594323142090582ul, 1243120476974621208ul, 12100812801659301173ul,
    11228203327983058121ul, 13891617888374767564ul, 5742893160230537107ul,
    3763472116988983643ul, 2466655769425769160ul, 6254574254498162968ul,
    14183251225809189357ul, 11565357354521717084ul, 17300657704266685688ul,
    310485250821938281ul, 16853586468012618118ul, 1978800426240373849ul,
    6948188224235462572ul, 1486402152218690509ul, 5669161690283398991ul,
    17943970877073781734ul, 17926851897715769433ul, 13052837496695000666ul,
    18138113741095562305ul,
};
__constant ulong p2_external_final[32] = {
    94277733998400326ul, 10891359798487446420ul, 18280773820738154043ul,
    13714589910668449566ul, 10639034072771185213ul, 14148790895768484219ul,
    18341268649720100165ul, 3096672942770686236ul, 12277596046563557393ul,
    400461754528604020ul, 12955488253560265444ul, 11773677676764285572ul,
    4833837465239476573ul, 17645852643693996619ul, 6605134696140007471ul,
    588040525114200273ul, 11001741536026769411ul, 17917086578469406776ul,
    14893530806420712543ul, 727997185253761138ul, 3443873847340254325ul,
    13095911531247069692ul, 8330737046680948619ul, 6014364575875986011ul,
    16851679856681761121ul, 17817965496543149594ul, 12823640325246269760ul,
    13685256787930775147ul, 4682652317564502291ul, 4233879762155685988ul,
    11097258179564187322ul, 10804761421745472094ul,
};
__constant ulong p2_internal_diag[8] = {
    18446744069414584319ul, 1ul, 2ul,
    9223372034707292161ul, 3ul, 9223372034707292160ul,
    18446744069414584318ul, 18446744069414584317ul,
};
#endif
/* tests/vectors/commitments/poseidon2/goldilocks_w12.json, from
 *  Plonky3/Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217 (2026-08-22),
 *  goldilocks/src/poseidon2.rs
 * canonical values. */
#if MERKLIZE_POSEIDON2_WIDTH == 12
#define P2_ROUNDS_P 22
__constant ulong p2_external_initial[48] = {
    1431286215153372998ul, 3509349009260703107ul, 2289575380984896342ul,
    10625215922958251110ul, 17137022507167291684ul, 17143426961497010024ul,
    9589775313463224365ul, 7736066733515538648ul, 2217569167061322248ul,
    10394930802584583083ul, 4612393375016695705ul, 5332470884919453534ul,
    8724526834049581439ul, 17673787971454860688ul, 2519987773101056005ul,
    7999687124137420323ul, 18312454652563306701ul, 15136091233824155669ul,
    1257110570403430003ul, 5665449074466664773ul, 16178737609685266571ul,
    52855143527893348ul, 8084454992943870230ul, 2597062441266647183ul,
    3342624911463171251ul, 6781356195391537436ul, 4697929572322733707ul,
    4179687232228901671ul, 17841073646522133059ul, 18340176721233187897ul,
    13152929999122219197ul, 6306257051437840427ul, 4974451914008050921ul,
    11258703678970285201ul, 581736081259960204ul, 18323286026903235604ul,
    10250026231324330997ul, 13321947507807660157ul, 13020725208899496943ul,
    11416990495425192684ul, 7221795794796219413ul, 2607917872900632985ul,
    2591896057192169329ul, 10485489452304998145ul, 9480186048908910015ul,
    2645141845409940474ul, 16242299839765162610ul, 12203738590896308135ul,
};
__constant ulong p2_internal[22] = {
    5395176197344543510ul, 17941136338888340715ul, 7559392505546762987ul,
    549633128904721280ul, 15658455328409267684ul, 10078371877170729592ul,
    2349868247408080783ul, 13105911261634181239ul, 12868653202234053626ul,
    9471330315555975806ul, 4580289636625406680ul, 13222733136951421572ul,
    4555032575628627551ul, 7619130111929922899ul, 4547848507246491777ul,
    5662043532568004632ul, 15723873049665279492ul, 13585630674756818185ul,
    6990417929677264473ul, 6373257983538884779ul, 1005856792729125863ul,
    17850970025369572891ul,
};
__constant ulong p2_external_final[48] = {
    14306783492963476045ul, 12653264875831356889ul, 10887434669785806501ul,
    7221072982690633460ul, 9953585853856674407ul, 13497620366078753434ul,
    18140292631504202243ul, 17311934738088402529ul, 6686302214424395771ul,
    11193071888943695519ul, 10233795775801758543ul, 3362219552562939863ul,
    8595401306696186761ul, 7753411262943026561ul, 12415218859476220947ul,
    12517451587026875834ul, 3257008032900598499ul, 2187469039578904770ul,
    657675168296710415ul, 8659969869470208989ul, 12526098871288378639ul,
    12525853395769009329ul, 15388161689979551704ul, 7880966905416338909ul,
    2911694411222711481ul, 6420652251792580406ul, 323544930728360053ul,
    11718666476052241225ul, 2449132068789045592ul, 17993014181992530560ul,
    15161788952257357966ul, 3788504801066818367ul, 1282111773460545571ul,
    8849495164481705550ul, 8380852402060721190ul, 2161980224591127360ul,
    2440151485689245146ul, 17521895002090134367ul, 13821005335130766955ul,
    17513705631114265826ul, 17068447856797239529ul, 17964439003977043993ul,
    5685000919538239429ul, 11615940660682589106ul, 2522854885180605258ul,
    12584118968072796115ul, 17841258728624635591ul, 10821564568873127316ul,
};
__constant ulong p2_internal_diag[12] = {
    18446744069414584319ul, 1ul, 2ul,
    9223372034707292161ul, 3ul, 4ul,
    9223372034707292160ul, 18446744069414584318ul, 18446744069414584317ul,
    13835058052060938241ul, 4611686017353646080ul, 16140901060737761281ul,
};
#endif
/* END CONSTANTS */

#ifndef P2_ROUNDS_P
#error "no Poseidon2 instance of this width (MERKLIZE_POSEIDON2_WIDTH: 8 or 12)"
#endif

P2_INLINE ulong p2_canonical(ulong x) { return x >= P2_PRIME ? x - P2_PRIME : x; }

P2_INLINE ulong p2_add(ulong a, ulong b) {
  ulong s = a + b;
  if (s < a) s += P2_EPSILON; /* a carry out: 2^64 = 2^32 - 1; no second carry (a, b < p) */
  return p2_canonical(s);
}

/* lo + hi 2^64 mod p. */
P2_INLINE ulong p2_reduce128(ulong lo, ulong hi) {
  const ulong hh = hi >> 32, hl = hi & P2_EPSILON;
  ulong t0 = lo - hh;
  if (lo < hh) t0 -= P2_EPSILON; /* a borrow: subtract 2^64 = 2^32 - 1 (t0 > 2^64 - 2^32 here) */
  const ulong t1 = hl * P2_EPSILON;
  ulong t2 = t0 + t1;
  if (t2 < t1) t2 += P2_EPSILON; /* a carry: no second one, t1 <= (2^32 - 1)^2 */
  return p2_canonical(t2);
}

P2_INLINE ulong p2_mul(ulong a, ulong b) { return p2_reduce128(a * b, mul_hi(a, b)); }

P2_INLINE ulong p2_sbox(ulong x) { /* x^7 */
  const ulong x2 = p2_mul(x, x), x3 = p2_mul(x2, x);
  return p2_mul(p2_mul(x3, x3), x);
}

/* M_E: each block of 4 by Plonky3's M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] (additions
 * only), then the sums over blocks of each place added to every block. */
P2_INLINE void p2_external_layer(ulong *x) {
#pragma unroll
  for (int b = 0; b < P2_W; b += 4) {
    const ulong a0 = x[b], a1 = x[b + 1], a2 = x[b + 2], a3 = x[b + 3];
    const ulong s01 = p2_add(a0, a1), s23 = p2_add(a2, a3), all = p2_add(s01, s23);
    /* row i: all + a_i + 2 a_{i+1} (indices mod 4): 2a0+3a1+a2+a3 = all + a0 + 2a1, ... */
    x[b] = p2_add(p2_add(all, a0), p2_add(a1, a1));
    x[b + 1] = p2_add(p2_add(all, a1), p2_add(a2, a2));
    x[b + 2] = p2_add(p2_add(all, a2), p2_add(a3, a3));
    x[b + 3] = p2_add(p2_add(all, a3), p2_add(a0, a0));
  }
  ulong sums[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    sums[i] = x[i];
#pragma unroll
    for (int b = 4; b < P2_W; b += 4) sums[i] = p2_add(sums[i], x[b + i]);
  }
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_add(x[i], sums[i % 4]);
}

/* M_I = J + diag(V): y_i = sum(x) + V_i x_i. */
P2_INLINE void p2_internal_layer(ulong *x) {
  ulong sum = x[0];
#pragma unroll
  for (int i = 1; i < P2_W; ++i) sum = p2_add(sum, x[i]);
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_add(sum, p2_mul(p2_internal_diag[i], x[i]));
}

P2_INLINE void p2_full_rounds(ulong *x, __constant const ulong *constants) {
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int i = 0; i < P2_W; ++i) x[i] = p2_sbox(p2_add(x[i], constants[r * P2_W + i]));
    p2_external_layer(x);
  }
}

/* The permutation of x (canonical) in place. */
P2_INLINE void p2_permute(ulong *x) {
  p2_external_layer(x);
  p2_full_rounds(x, p2_external_initial);
  for (int r = 0; r < P2_ROUNDS_P; ++r) {
    x[0] = p2_sbox(p2_add(x[0], p2_internal[r]));
    p2_internal_layer(x);
  }
  p2_full_rounds(x, p2_external_final);
}


#if P2_W == 8
/* The node function of merkle.cl (uint8 f(uint8 left, uint8 right, int is_root)): left's and
 * right's 4 limbs of 64 bits (canonical little-endian elements as they lie in memory; a limb of p
 * or more is taken mod p, as the host reference takes it) fill the state, the first 4 elements
 * come out. No root flag. */
P2_INLINE uint8 poseidon2_goldilocks_node(uint8 left, uint8 right, int is_root) {
  ulong x[8];
  x[0] = upsample(left.s1, left.s0);
  x[1] = upsample(left.s3, left.s2);
  x[2] = upsample(left.s5, left.s4);
  x[3] = upsample(left.s7, left.s6);
  x[4] = upsample(right.s1, right.s0);
  x[5] = upsample(right.s3, right.s2);
  x[6] = upsample(right.s5, right.s4);
  x[7] = upsample(right.s7, right.s6);
#pragma unroll
  for (int i = 0; i < 8; ++i) x[i] = p2_canonical(x[i]);
  p2_permute(x);
  return (uint8)(as_uint2(x[0]), as_uint2(x[1]), as_uint2(x[2]), as_uint2(x[3]));
}

/* Plonky3's PaddingFreeSponge of width 8, rate 4, 4 out (the host reference's
 * poseidon2::sponge): out[out_first + r] <- the leaf of row r of a row-major matrix of `width`
 * canonical elements a row (u64 each; a limb of p or more is taken mod p), for r below rows. */
__kernel void poseidon2_goldilocks_rows(__global const ulong *matrix, ulong rows, ulong width,
                                        __global uint8 *out, ulong out_first) {
  const ulong r = get_global_id(0);
  if (r >= rows) return;
  __global const ulong *row = matrix + r * width;
  ulong x[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) x[i] = 0ul;
  for (ulong at = 0; at < width; at += 4) {
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (at + j < width) x[j] = p2_canonical(row[at + j]); /* overwrite mode */
    p2_permute(x);
  }
  out[out_first + r] = (uint8)(as_uint2(x[0]), as_uint2(x[1]), as_uint2(x[2]), as_uint2(x[3]));
}
#endif

/* states[s * W .. s * W + W) <- the permutation of it, applied `rounds` times (as
 * poseidon2_31_permute), canonical elements in and out (a limb of p or more taken mod p). */
__kernel void poseidon2_goldilocks_permute(__global ulong *states, ulong count, uint rounds) {
  const ulong s = get_global_id(0);
  if (s >= count) return;
  ulong x[P2_W];
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_canonical(states[s * P2_W + i]);
  for (uint r = 0; r < rounds; ++r) p2_permute(x);
#pragma unroll
  for (int i = 0; i < P2_W; ++i) states[s * P2_W + i] = x[i];
}
)merklize_cl"
