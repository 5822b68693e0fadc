"""`tf.contrib.integrate`, served whole: `odeint` (adaptive Dormand-Prince) and `odeint_fixed`
(midpoint / RK4 on a fixed grid), written with TF ops in `integrate_ode`."""
from estimator_compat.legacy.contrib import integrate_ode as _ode
from estimator_compat.legacy.namespaces import namespace


def build():
    ops = namespace("tensorflow.contrib.integrate.python.ops.odes", "contrib.integrate's odes",
                    odeint=_ode.odeint, odeint_fixed=_ode.odeint_fixed)
    # registered for deep imports; TF 1.15's package did not keep a `python` attribute
    namespace("tensorflow.contrib.integrate.python", "contrib.integrate",
              ops=namespace("tensorflow.contrib.integrate.python.ops",
                            "contrib.integrate's ops", odes=ops))
    return namespace("tensorflow.contrib.integrate", "tf.contrib.integrate (ODE solvers)",
                     __served_whole__=True, odeint=_ode.odeint,
                     odeint_fixed=_ode.odeint_fixed)
