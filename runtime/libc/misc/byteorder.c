/* Network byte order (glibc defines these as functions too; `who` calls them at -O0). */
#include <arpa/inet.h>
#include <stdint.h>

/* the headers make them macros under -O */
#undef htonl
#undef ntohl
#undef htons
#undef ntohs

uint32_t htonl(uint32_t x) { return __builtin_bswap32(x); }
uint32_t ntohl(uint32_t x) { return __builtin_bswap32(x); }
uint16_t htons(uint16_t x) { return __builtin_bswap16(x); }
uint16_t ntohs(uint16_t x) { return __builtin_bswap16(x); }
