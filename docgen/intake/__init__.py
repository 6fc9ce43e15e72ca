"""The election loop after the forms go out: returned forms read back into the facts file (as it
was written), paper forms typed in, and who has answered (`docgen intake`, `docgen elect`,
`docgen status`). A layer above issuing, which it reads (the manifest of the folder that sent
the forms), and below the api."""
