// Ends one instantiation of X86TileTemplate.h: undefines the parameters X86.c set for it.
#undef FMK_TILE_ROWS
#undef FMK_TILE_TOKENS
#undef FMK_VF
#undef FMK_VI
#undef FMK_VF_ZERO
#undef FMK_VF_LOAD
#undef FMK_VF_STORE
#undef FMK_VF_SET1
#undef FMK_VF_MUL
#undef FMK_VF_ADD
#undef FMK_VF_FMA
#undef FMK_VF_CVT
#undef FMK_VI_LOAD
#undef FMK_VI_SET1
#undef FMK_TILE_DOT
