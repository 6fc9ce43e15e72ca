"""The Retirement Restoration Plan: a Plan Year's Deferral Elections, contributions and payments.

The kind itself (its Kind, registered when imported) is ``docgen.kinds.rrp.kind``, which the
registry imports when a Plan Year is first asked for (registry.BUILT_IN): importing a part of the
package, such as the Plan's authorities a DOC-* rule cites, does not import the whole kind.
"""
