export TGEMM_ARCH=avx2
bash /tmp/alt.sh /tmp/res_ds 3 activate:sigmoid,activate:silu d M DS8
bash /tmp/alt.sh /tmp/res_dt 3 activate:gelu_tanh,bias_act:gelu_tanh d M DT3
