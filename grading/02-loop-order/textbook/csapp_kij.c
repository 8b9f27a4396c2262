/* textbook: kij
 * The k-i-j order of Bryant and O'Hallaron's Computer Systems: A Programmer's Perspective (section
 * 6.6.2, class BC), in this workbook's own code: see csapp_orders.h. Graded on `kij` only (the
 * other stages do nothing): a textbook loop order must pass. */
#define PLANT_STAGES "kij"
#include "textbook/csapp_orders.h"
