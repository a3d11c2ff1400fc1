// The page's skip link ("Skip to the lesson", the first tab stop): moves focus
// past the header and the contents to the chapter. It does not follow its
// href, because the URL hash holds the page's state (#chapter=…), and a bare
// "#chapter" would be read as a chapter that does not exist.
export function installSkipLink(link, target) {
  link.addEventListener('click', (event) => {
    event.preventDefault();
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
    target.scrollIntoView({ block: 'start' });
  });
}
