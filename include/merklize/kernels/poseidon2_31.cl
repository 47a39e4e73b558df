R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Poseidon2 over the 31-bit fields BabyBear (p = 15 2^27 + 1) and KoalaBear (p = 2^31 - 2^24 + 1),
 * Plonky3's default instances of width 16 and 24, in plain OpenCL C 1.2: the node hash of the
 * "poseidon2-babybear" and "poseidon2-koalabear" trees (poseidon2_31_node, for merkle.cl and its
 * kin: Plonky3's 2-to-1 compression, a truncated permutation of width 16) and a kernel that
 * permutes states in memory (poseidon2_31_permute: the known answers' test and the permutation
 * bench). The host reference is include/merklize/core/poseidon2.hpp, which also says the order of
 * the layers.
 *
 * Build options: -DMERKLIZE_POSEIDON2_FIELD=1 (BabyBear) or 2 (KoalaBear), the table of hashes'
 * options; -DMERKLIZE_POSEIDON2_WIDTH=16 (the default, the only width with a node function) or 24.
 *
 * Elements are kept in Montgomery form, x R mod p with R = 2^32, below p: a product is one 32x32
 * multiplication to 64 bits and Montgomery's reduction (two more multiplications and a
 * conditional subtraction), with no division. The constants below are in that form; a digest's
 * canonical limbs enter as mont_mul(x, R^2 mod p) and leave as mont_mul(x, 1). */

#ifndef MERKLIZE_POSEIDON2_FIELD
#error "build with -DMERKLIZE_POSEIDON2_FIELD=1 (BabyBear) or 2 (KoalaBear)"
#endif
#ifndef MERKLIZE_POSEIDON2_WIDTH
#define MERKLIZE_POSEIDON2_WIDTH 16
#endif
#define P2_W MERKLIZE_POSEIDON2_WIDTH

/* Every helper is inlined: a call would pass the state through the private stack, which on a
 * GPU is device memory (as keccak.cl's KECCAK_INLINE). */
#define P2_INLINE inline __attribute__((always_inline))

/* BEGIN CONSTANTS: written by tools/poseidon2_constants.py, do not edit */
/* tests/vectors/commitments/poseidon2/babybear_w16.json, from
 *  Plonky3/Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217 (2026-08-22),
 *  baby-bear/src/poseidon2.rs
 * in Montgomery form: the canonical value times 2^32 mod p. */
#if MERKLIZE_POSEIDON2_FIELD == 1 && MERKLIZE_POSEIDON2_WIDTH == 16
#define P2_PRIME 2013265921u
#define P2_MU 2013265919u /* -1/p mod 2^32 */
#define P2_R2 1172168163u /* 2^64 mod p */
#define P2_SBOX_DEGREE 7
#define P2_ROUNDS_P 13
__constant uint p2_external_initial[64] = {
    1582131512u, 1899519471u, 1641921850u, 462688640u, 1293997949u, 1380417575u,
    1932416963u, 283521298u, 1016708647u, 35751290u, 1270782647u, 851730739u,
    795004022u, 929571430u, 523703523u, 1593957757u, 895976710u, 1742343460u,
    917700746u, 1516725708u, 1170237629u, 785693164u, 613651155u, 352999196u,
    678775274u, 1005433272u, 1704854670u, 1174551920u, 508930349u, 530338447u,
    1327158816u, 1417652352u, 1153538870u, 583201050u, 397833841u, 1440603828u,
    454600685u, 174490638u, 171758601u, 1998476616u, 1403697810u, 1807736944u,
    450348306u, 1458895865u, 787037868u, 1063762964u, 1987002214u, 481645916u,
    1231767638u, 1323639433u, 238360103u, 2012412459u, 1024945356u, 1108359895u,
    1284135849u, 606928406u, 1021455954u, 719347978u, 659671051u, 769588663u,
    805534062u, 592213995u, 1752728055u, 663410947u,
};
__constant uint p2_internal[13] = {
    250494022u, 528496384u, 1472966118u, 977089650u, 1885890237u, 1094557811u,
    147492661u, 664163003u, 398852570u, 336233633u, 1628648315u, 888594966u,
    586791090u,
};
__constant uint p2_external_final[64] = {
    999830298u, 304461056u, 552699684u, 450698925u, 667466464u, 1736509752u,
    1327760865u, 1153241151u, 816675655u, 1076172858u, 1914832527u, 1668723429u,
    1365579850u, 975704528u, 1031625628u, 1393317533u, 1554700828u, 1023828605u,
    1610378860u, 347744760u, 1909572073u, 739227895u, 428565985u, 633143046u,
    121797685u, 94048546u, 1369350241u, 1250010422u, 114268841u, 515033604u,
    49052844u, 1962329907u, 1380892638u, 1860017417u, 64711457u, 9758460u,
    1681838395u, 710850601u, 1020228997u, 1414164790u, 1531515535u, 36158805u,
    713604525u, 89935127u, 1870801994u, 395985906u, 1122769045u, 1760811055u,
    819787042u, 134654834u, 1755145179u, 18433016u, 1701878989u, 1782339297u,
    1483861396u, 962480061u, 1857590724u, 222440409u, 63223417u, 515206622u,
    1348364213u, 973414686u, 1591066884u, 705852913u,
};
__constant uint p2_internal_diag[16] = {
    1476395013u, 268435454u, 536870908u, 134217727u, 805306362u, 1073741816u,
    1879048194u, 1207959559u, 939524105u, 16777216u, 1073741824u, 536870912u,
    32u, 1996488705u, 1744830465u, 2013265889u,
};
#endif
/* tests/vectors/commitments/poseidon2/babybear_w24.json, from
 *  Plonky3/Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217 (2026-08-22),
 *  baby-bear/src/poseidon2.rs
 * in Montgomery form: the canonical value times 2^32 mod p. */
#if MERKLIZE_POSEIDON2_FIELD == 1 && MERKLIZE_POSEIDON2_WIDTH == 24
#define P2_PRIME 2013265921u
#define P2_MU 2013265919u /* -1/p mod 2^32 */
#define P2_R2 1172168163u /* 2^64 mod p */
#define P2_SBOX_DEGREE 7
#define P2_ROUNDS_P 21
__constant uint p2_external_initial[96] = {
    514215000u, 1473356547u, 1475549808u, 280201050u, 66476557u, 553479290u,
    103276920u, 1615072023u, 810837962u, 646554063u, 1079828279u, 1652363045u,
    569019161u, 901639906u, 1154652333u, 1197195121u, 1146559378u, 1908415181u,
    1188553533u, 892287745u, 1849641539u, 1631541944u, 725508932u, 104512978u,
    1334122235u, 491896527u, 54459111u, 376068648u, 203528896u, 54074077u,
    1660407700u, 518066980u, 1973611996u, 282379828u, 1621744025u, 1797291911u,
    1693741551u, 1978660371u, 886544622u, 167843215u, 766618548u, 1464263490u,
    1143720041u, 1571250914u, 1097878221u, 138511063u, 1364260882u, 1916288354u,
    773178408u, 1821171954u, 403657849u, 1575896402u, 73837948u, 743839936u,
    591330190u, 1433978562u, 262499807u, 431526004u, 719595300u, 194223030u,
    1265398957u, 1935012223u, 1757830457u, 856083153u, 1565856438u, 833999680u,
    113987054u, 1855218953u, 1681459362u, 890486603u, 521608901u, 173274721u,
    1470741859u, 504959283u, 1923302440u, 334947417u, 1416053552u, 118182962u,
    1100773057u, 225906547u, 1696758794u, 235400587u, 1997205562u, 716176367u,
    499124855u, 1720932111u, 289571341u, 1719460361u, 1762284302u, 1510804498u,
    1501266228u, 1958052382u, 1650199808u, 355437897u, 1969804773u, 1941801293u,
};
__constant uint p2_internal[21] = {
    817671506u, 1519591350u, 171487534u, 336496533u, 1785053956u, 1918729404u,
    1416938618u, 134434616u, 1870282804u, 1601772343u, 313060140u, 1220754610u,
    1857739495u, 172343579u, 1602736081u, 288066427u, 313807093u, 672069293u,
    523053463u, 369853002u, 163925410u,
};
__constant uint p2_external_final[96] = {
    1497457364u, 1276091099u, 1894167051u, 1333627684u, 1171979540u, 1349891480u,
    1848354674u, 744154815u, 1950007540u, 819092480u, 1956018105u, 1115373549u,
    1122988591u, 433670620u, 1004751065u, 486579077u, 1352768232u, 947535130u,
    684578900u, 556404990u, 177487993u, 486074613u, 1813250422u, 732038186u,
    641675496u, 85370036u, 1046322034u, 1839987247u, 326383233u, 1360384116u,
    1042184086u, 833417546u, 129595121u, 1442408468u, 979417802u, 1710561480u,
    1048383294u, 1311937500u, 808034843u, 269284270u, 1504218145u, 297623519u,
    1574558398u, 1512692245u, 1132490863u, 634765248u, 803776238u, 484649754u,
    682278882u, 1014915678u, 1476229142u, 2004304323u, 529748649u, 1721394210u,
    1441645470u, 1858910116u, 198424796u, 1436920111u, 1215222582u, 933370502u,
    143759022u, 1035452870u, 460823304u, 909965784u, 201144279u, 429997713u,
    634885780u, 1036892459u, 257468050u, 325299453u, 1481301005u, 127711554u,
    377983626u, 1860200820u, 1750890547u, 304452178u, 152103645u, 801274586u,
    1888040085u, 1659972272u, 787408365u, 883701053u, 763866915u, 1581752865u,
    1932512397u, 1119094246u, 625785354u, 912815711u, 1053366786u, 1246219010u,
    17879907u, 1935021695u, 1467816753u, 324912627u, 191577525u, 1753091373u,
};
__constant uint p2_internal_diag[24] = {
    1476395013u, 268435454u, 536870908u, 134217727u, 805306362u, 1073741816u,
    1879048194u, 1207959559u, 939524105u, 16777216u, 1073741824u, 536870912u,
    268435456u, 33554432u, 8388608u, 32u, 1996488705u, 939524097u,
    1476395009u, 1744830465u, 1879048193u, 1946157057u, 1979711489u, 2013265889u,
};
#endif
/* tests/vectors/commitments/poseidon2/koalabear_w16.json, from
 *  Plonky3/Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217 (2026-08-22),
 *  koala-bear/src/poseidon2.rs
 * in Montgomery form: the canonical value times 2^32 mod p. */
#if MERKLIZE_POSEIDON2_FIELD == 2 && MERKLIZE_POSEIDON2_WIDTH == 16
#define P2_PRIME 2130706433u
#define P2_MU 2130706431u /* -1/p mod 2^32 */
#define P2_R2 402124772u /* 2^64 mod p */
#define P2_SBOX_DEGREE 3
#define P2_ROUNDS_P 20
__constant uint p2_external_initial[64] = {
    1614124704u, 1884142317u, 300655816u, 847876302u, 1958215768u, 1309497572u,
    158450169u, 1646205517u, 1880755365u, 351226090u, 287057949u, 2007407702u,
    238356786u, 852024975u, 1319346035u, 1328814969u, 1007661028u, 1798452244u,
    331914158u, 974260758u, 625311058u, 932419861u, 1434091277u, 583624216u,
    133212500u, 359559822u, 1136108777u, 1425043024u, 798248640u, 177542721u,
    450741670u, 1269505401u, 1077718852u, 1199361360u, 506968891u, 198604500u,
    1912331804u, 856193140u, 1985105208u, 2102918133u, 112556929u, 827971453u,
    1843720806u, 1310990092u, 648092924u, 837736348u, 1924789996u, 213115176u,
    1402192505u, 573131608u, 2108237289u, 1899899662u, 1202601967u, 897097282u,
    1630711212u, 41410563u, 109420968u, 660050831u, 1885580012u, 1084731576u,
    1538058899u, 1581437082u, 659144176u, 822546017u,
};
__constant uint p2_internal[20] = {
    317324610u, 1434823598u, 651841139u, 887703466u, 2090308983u, 652319824u,
    1462330238u, 134176620u, 2002182634u, 1425415099u, 1213238951u, 561632048u,
    1774106689u, 1923439134u, 396461146u, 309459167u, 414288770u, 415226705u,
    1470828402u, 565695009u,
};
__constant uint p2_external_final[64] = {
    874415299u, 473148568u, 1401841756u, 1366193399u, 2058401052u, 958569397u,
    1725884907u, 619650222u, 209316903u, 1998006884u, 454808502u, 1924583965u,
    1989075539u, 1106623613u, 612535602u, 386263211u, 324455028u, 885292986u,
    1326532959u, 1441422640u, 466579986u, 17287287u, 1149145390u, 285845681u,
    2005910186u, 43141911u, 902987030u, 1396349394u, 1306723488u, 1991364255u,
    243992103u, 1401741542u, 2085300423u, 1854207608u, 669223462u, 114229322u,
    1459597563u, 114920007u, 1706491810u, 807359200u, 1636017202u, 1006072702u,
    1331346960u, 2112251122u, 1365286322u, 1355429751u, 1735269612u, 1966723865u,
    1041463517u, 381260886u, 2101618193u, 770154765u, 1605357955u, 1216623833u,
    1499178671u, 761635590u, 829520289u, 803575779u, 1834551353u, 101556034u,
    1786430801u, 1418571885u, 181713165u, 1264529099u,
};
__constant uint p2_internal_diag[16] = {
    2063597573u, 33554430u, 67108860u, 16777215u, 100663290u, 134217720u,
    2113929218u, 2030043143u, 1996488713u, 16777216u, 536870912u, 256u,
    2113929217u, 1593835521u, 1862270977u, 2130706177u,
};
#endif
/* tests/vectors/commitments/poseidon2/koalabear_w24.json, from
 *  Plonky3/Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217 (2026-08-22),
 *  koala-bear/src/poseidon2.rs
 * in Montgomery form: the canonical value times 2^32 mod p. */
#if MERKLIZE_POSEIDON2_FIELD == 2 && MERKLIZE_POSEIDON2_WIDTH == 24
#define P2_PRIME 2130706433u
#define P2_MU 2130706431u /* -1/p mod 2^32 */
#define P2_R2 402124772u /* 2^64 mod p */
#define P2_SBOX_DEGREE 3
#define P2_ROUNDS_P 23
__constant uint p2_external_initial[96] = {
    41450819u, 20864419u, 728904462u, 1130517487u, 1452036908u, 798571722u,
    1785686623u, 222682608u, 75493031u, 105836254u, 1436009464u, 608678151u,
    1698040687u, 960577915u, 951442589u, 1039160636u, 403677290u, 1954588962u,
    524598408u, 2098537957u, 1317724273u, 2064338562u, 2054882408u, 606824880u,
    1340213585u, 1139470423u, 632324852u, 1067122780u, 705484819u, 1067169174u,
    1561750501u, 1274829247u, 642851815u, 1757973518u, 625260163u, 1708685777u,
    111998107u, 1463562037u, 1897798015u, 1637107619u, 343764478u, 1967406999u,
    1974030652u, 119149947u, 1163554593u, 1998114430u, 1290129914u, 302920007u,
    2021838562u, 966150435u, 913140876u, 180041765u, 1526541880u, 380843819u,
    1574824765u, 1836708616u, 1527087848u, 696104320u, 811158648u, 927696501u,
    111512175u, 172180061u, 1569738092u, 782840257u, 1132060742u, 1425401756u,
    1353322553u, 38247706u, 619486721u, 740311631u, 935920879u, 2071600564u,
    225110879u, 1132343635u, 209129667u, 1888014267u, 1345011394u, 57507555u,
    1242819700u, 812693329u, 1357906389u, 2007302231u, 580086338u, 816065505u,
    1241948363u, 1253630698u, 1540907708u, 270379106u, 1403505826u, 1504986215u,
    1047876438u, 266999065u, 1258129769u, 1338014319u, 1406726442u, 368208151u,
};
__constant uint p2_internal[23] = {
    696607023u, 303079601u, 1321020428u, 322010054u, 1522444977u, 1041581493u,
    802638947u, 139962819u, 1323426127u, 1293888430u, 908663487u, 1750362067u,
    1449616646u, 778059038u, 1807796420u, 571770730u, 725783545u, 792780014u,
    1551325740u, 1253157599u, 1247642780u, 898181250u, 507292389u,
};
__constant uint p2_external_final[96] = {
    1002519496u, 132168582u, 2083653432u, 898927934u, 1412925457u, 1434971507u,
    1136687555u, 1545260976u, 1244255701u, 68773722u, 1360931182u, 824362120u,
    319475640u, 556433575u, 831449331u, 1030625720u, 239387208u, 976095282u,
    1026566917u, 2088784467u, 574141577u, 1551216622u, 1644407338u, 1993825392u,
    141406362u, 958414530u, 43626383u, 1833232473u, 508242552u, 425003941u,
    2045968628u, 1832990699u, 1705365788u, 1458970665u, 461255975u, 1407945701u,
    681650690u, 454848343u, 865280811u, 1441435278u, 367601707u, 1300930578u,
    474376832u, 136234834u, 330741289u, 471446172u, 1001529504u, 1657990873u,
    1939751981u, 1440539575u, 837163792u, 452278415u, 2086048327u, 313938925u,
    1589290850u, 331837476u, 541995145u, 1193934607u, 579159806u, 150848324u,
    86721814u, 329985797u, 758692328u, 292896804u, 71715847u, 1063295071u,
    1485221655u, 1752203481u, 1025823u, 566191797u, 1412104170u, 984752230u,
    1343700578u, 1806161577u, 2021231063u, 908376358u, 305444646u, 113321593u,
    1552180646u, 1376603198u, 1957786768u, 1108519157u, 650395203u, 1028798417u,
    1036705056u, 2041053251u, 357967324u, 405184382u, 1720705416u, 380328042u,
    628318377u, 514969145u, 333409447u, 1825131968u, 312492723u, 187019043u,
};
__constant uint p2_internal_diag[24] = {
    2063597573u, 33554430u, 67108860u, 16777215u, 100663290u, 134217720u,
    2113929218u, 2030043143u, 1996488713u, 16777216u, 1073741824u, 536870912u,
    268435456u, 134217728u, 67108864u, 256u, 2113929217u, 1593835521u,
    1862270977u, 1996488705u, 2063597569u, 2097152001u, 2122317825u, 2130706177u,
};
#endif
/* END CONSTANTS */

#ifndef P2_PRIME
#error "no Poseidon2 instance of this field and width (MERKLIZE_POSEIDON2_WIDTH: 16 or 24)"
#endif

/* a b / R mod p for a, b below p (or one of them below 2^32 and the other below p): t + m p is a
 * multiple of R below 2^32 p + 2^32 p, so the quotient is below 2p. */
P2_INLINE uint p2_mont_mul(uint a, uint b) {
  const ulong t = (ulong)a * b;
  const uint m = (uint)t * P2_MU;
  const uint u = (uint)((t + (ulong)m * P2_PRIME) >> 32);
  return u >= P2_PRIME ? u - P2_PRIME : u;
}

P2_INLINE uint p2_add(uint a, uint b) {
  const uint s = a + b; /* below 2p < 2^32 */
  return s >= P2_PRIME ? s - P2_PRIME : s;
}

P2_INLINE uint p2_sbox(uint x) {
  const uint x2 = p2_mont_mul(x, x);
#if P2_SBOX_DEGREE == 3
  return p2_mont_mul(x2, x);
#elif P2_SBOX_DEGREE == 7
  const uint x3 = p2_mont_mul(x2, x);
  return p2_mont_mul(p2_mont_mul(x3, x3), x);
#else
#error "an S-box degree of 3 or 7"
#endif
}

/* M_E: each block of 4 by Plonky3's M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] (additions
 * only), then the sums over blocks of each place added to every block. */
P2_INLINE void p2_external_layer(uint *x) {
#pragma unroll
  for (int b = 0; b < P2_W; b += 4) {
    const uint a0 = x[b], a1 = x[b + 1], a2 = x[b + 2], a3 = x[b + 3];
    const uint s01 = p2_add(a0, a1), s23 = p2_add(a2, a3), all = p2_add(s01, s23);
    /* row i: all + a_i + 2 a_{i+1} (indices mod 4): 2a0+3a1+a2+a3 = all + a0 + 2a1, ... */
    x[b] = p2_add(p2_add(all, a0), p2_add(a1, a1));
    x[b + 1] = p2_add(p2_add(all, a1), p2_add(a2, a2));
    x[b + 2] = p2_add(p2_add(all, a2), p2_add(a3, a3));
    x[b + 3] = p2_add(p2_add(all, a3), p2_add(a0, a0));
  }
  uint sums[4];
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
P2_INLINE void p2_internal_layer(uint *x) {
  uint sum = x[0];
#pragma unroll
  for (int i = 1; i < P2_W; ++i) sum = p2_add(sum, x[i]);
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_add(sum, p2_mont_mul(p2_internal_diag[i], x[i]));
}

P2_INLINE void p2_full_rounds(uint *x, __constant const uint *constants) {
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int i = 0; i < P2_W; ++i) x[i] = p2_sbox(p2_add(x[i], constants[r * P2_W + i]));
    p2_external_layer(x);
  }
}

/* The permutation of x (Montgomery form) in place. */
P2_INLINE void p2_permute(uint *x) {
  p2_external_layer(x);
  p2_full_rounds(x, p2_external_initial);
  for (int r = 0; r < P2_ROUNDS_P; ++r) {
    x[0] = p2_sbox(p2_add(x[0], p2_internal[r]));
    p2_internal_layer(x);
  }
  p2_full_rounds(x, p2_external_final);
}

P2_INLINE uint p2_to_mont(uint canonical) { return p2_mont_mul(canonical, P2_R2); }
P2_INLINE uint p2_from_mont(uint x) { return p2_mont_mul(x, 1u); }

#if P2_W == 16
/* The node function of merkle.cl (uint8 f(uint8 left, uint8 right, int is_root)): left's and
 * right's 8 limbs (canonical little-endian elements as they lie in memory; a limb of p or more is
 * taken mod p, as the host reference takes it) fill the state, the first 8 elements come out. No
 * root flag. */
P2_INLINE uint8 poseidon2_31_node(uint8 left, uint8 right, int is_root) {
  uint x[16];
  vstore8(left, 0, x);
  vstore8(right, 1, x);
#pragma unroll
  for (int i = 0; i < 16; ++i) x[i] = p2_to_mont(x[i]);
  p2_permute(x);
#pragma unroll
  for (int i = 0; i < 8; ++i) x[i] = p2_from_mont(x[i]);
  return vload8(0, x);
}

/* Plonky3's PaddingFreeSponge of width 16, rate 8, 8 out (the host reference's
 * poseidon2::sponge): out[out_first + r] <- the leaf of row r of a row-major matrix of `width`
 * canonical elements a row (u32 each; a limb of p or more is taken mod p), for r below rows. */
__kernel void poseidon2_31_rows(__global const uint *matrix, ulong rows, ulong width,
                                __global uint8 *out, ulong out_first) {
  const ulong r = get_global_id(0);
  if (r >= rows) return;
  __global const uint *row = matrix + r * width;
  uint x[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) x[i] = 0u; /* zero is zero in Montgomery form too */
  for (ulong at = 0; at < width; at += 8) {
#pragma unroll
    for (int j = 0; j < 8; ++j)
      if (at + j < width) x[j] = p2_to_mont(row[at + j]); /* overwrite mode */
    p2_permute(x);
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) x[i] = p2_from_mont(x[i]);
  out[out_first + r] = vload8(0, x);
}
#endif

/* states[s * W .. s * W + W) <- the permutation of it, canonical elements in and out, for s below
 * count: the known answers' test (tests/test_poseidon2_device.cpp) and bench/poseidon2_bench.cpp,
 * which also times `rounds` permutations of a state kept in registers (rounds > 1: the
 * permutation-only rate, memory traffic amortised away). */
__kernel void poseidon2_31_permute(__global uint *states, ulong count, uint rounds) {
  const ulong s = get_global_id(0);
  if (s >= count) return;
  uint x[P2_W];
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_to_mont(states[s * P2_W + i]);
  for (uint r = 0; r < rounds; ++r) p2_permute(x);
#pragma unroll
  for (int i = 0; i < P2_W; ++i) states[s * P2_W + i] = p2_from_mont(x[i]);
}
)merklize_cl"
