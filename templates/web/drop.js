// The Returned forms screen: PDFs dropped anywhere on the page fill its file input and are read at
// once (reading records nothing; Record does). Without JavaScript the file input works as ever.
(function () {
  "use strict";
  var form = document.getElementById("drop-form");
  if (!form) { return; }
  var input = form.querySelector("input[type=file]");
  var zone = document.getElementById("drop");
  var said = document.getElementById("drop-said");
  function hovering(on) { zone.classList.toggle("over", on); }
  document.addEventListener("dragover", function (event) {
    event.preventDefault();
    hovering(true);
  });
  document.addEventListener("dragleave", function (event) {
    if (event.relatedTarget === null) { hovering(false); }
  });
  document.addEventListener("drop", function (event) {
    event.preventDefault();
    hovering(false);
    var files = event.dataTransfer && event.dataTransfer.files;
    if (!files || files.length === 0) { return; }
    input.files = files;
    said.textContent = "Reading " + files.length + " form" + (files.length === 1 ? "" : "s") + "...";
    form.requestSubmit();
  });
  zone.hidden = false;
}());
