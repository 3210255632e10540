/// The page and its assets (`Page/`), compiled into the binary by the package manager
/// (`embedInCode`): no file to install and no CDN, so the page works with no internet.
enum WebPage {
    static let html = String(decoding: PackageResources.page_html, as: UTF8.self)
    static let script = String(decoding: PackageResources.page_js, as: UTF8.self)
    static let style = String(decoding: PackageResources.page_css, as: UTF8.self)
}
