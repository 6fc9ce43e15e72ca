"""Director RSU grants: the Notice of Restricted Stock Unit Grant and its Exhibit I, per cycle.

The kind itself (its Kind, registered when imported) is ``docgen.kinds.director_rsu.kind``, which
the registry imports when a grant is first asked for (registry.BUILT_IN): importing a part of the
package, such as the authorities a DOC-* rule cites, does not import the whole kind.
"""
