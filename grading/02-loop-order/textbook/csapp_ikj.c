/* textbook: ikj
 * The i-k-j order of Bryant and O'Hallaron's Computer Systems: A Programmer's Perspective (section
 * 6.6.2, class BC), in this workbook's own code: see csapp_orders.h. Graded on `ikj` only (the
 * other stages do nothing): a textbook loop order must pass. */
#define ORDER_IKJ
#define PLANT_STAGES "ikj"
#include "textbook/csapp_orders.h"
