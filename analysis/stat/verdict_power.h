/* The power every "detectable change" is given at: one constant for compare, show, changes and bisect. */
#ifndef SCALEBENCH_VERDICT_POWER_H
#define SCALEBENCH_VERDICT_POWER_H
#define SB_POWER 0.8
#endif
