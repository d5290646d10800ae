/* libdlink.so: the C interface (include/dlink/dlink.h) comes from the static
 * library, linked in whole; this unit only gives the target a source. */
#include "dlink/dlink.h"
