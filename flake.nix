{
  description = "Public home-service booking API for Sweden (TypeScript on Effect, PostgreSQL)";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.11";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin" ];
      forAll = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
    in
    {
      devShells = forAll (pkgs: {
        default = pkgs.mkShell {
          packages = [ pkgs.nodejs_20 pkgs.postgresql_16 ];
          shellHook = ''
            echo "node $(node --version), $(postgres --version)"
            echo "npm ci && npm start   # API on http://127.0.0.1:8080 with an embedded PostgreSQL"
          '';
        };
      });

      packages = forAll (pkgs: {
        default = pkgs.buildNpmPackage {
          pname = "home-service-booking-api";
          version = "0.1.0";
          src = self;
          nodejs = pkgs.nodejs_20;
          # Pin after the first `nix build`, which prints the hash of the npm dependencies.
          npmDepsHash = pkgs.lib.fakeHash;
          dontNpmBuild = true;
          installPhase = ''
            runHook preInstall
            mkdir -p $out/lib/booking-api $out/bin
            cp -r src migrations supply package.json node_modules $out/lib/booking-api/
            makeWrapper ${pkgs.nodejs_20}/bin/node $out/bin/booking-api \
              --add-flags "$out/lib/booking-api/node_modules/tsx/dist/cli.mjs $out/lib/booking-api/src/main.ts"
            runHook postInstall
          '';
        };
      });
    };
}
