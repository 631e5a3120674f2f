#include <xgboost/c_api.h>
